// `boneyard ogf ...`: list, set (texture/shader of chosen children), motion-refs, userdata and
// retarget, on one model (-o or --in-place) or every .ogf under a folder (--recursive, in place or
// --dry-run). Argument parsing only; the edits are in xray/ogf/ogf_edit.h, the flow of reading,
// checking and writing them (shared with Python's boneyard.Ogf) in registry/ogf_edits.h.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/registry/ogf_edits.h"
#include "boneyard/xray/ogf/ogf_edit.h"
#include "boneyard/xray/xray_game.h"
#include "commands.h"
#include "model_edit_cmd.h"

namespace boneyard::cli {

// Named, not anonymous: the CLI is a unity build, and cmd_omf.cpp's helpers have the same names.
namespace ogf_cmd {

using xray::EditReport;
using xray::OgfFile;

struct OgfKind {
  using Edit = OgfEdit;
  using Fn = OgfEditFn;
  static constexpr const char* ext = ".ogf";
  static constexpr const char* part = "child";
  static Result<Edit> read(std::shared_ptr<const FileData> d, std::filesystem::path p) { return read_ogf_edit(std::move(d), std::move(p)); }
  static Result<std::vector<std::uint8_t>> bytes(const Edit& e) { return ogf_edit_bytes(e); }
  static Result<SavedOgf> save(const Edit& e, const std::filesystem::path& o) { return save_ogf_edit(e, o); }
  static Result<std::vector<FolderEditItem>> folder(const std::filesystem::path& f, const std::vector<std::string>& sel,
                                                    const Fn& edit, bool dry_run) {
    return edit_ogf_folder(f, sel, edit, dry_run);
  }
};

using model_edit::fail_usage;
std::optional<OgfEdit> read_or_report(const std::string& path, int& exit_code) {
  return model_edit::read_or_report<OgfKind>(path, exit_code);
}
template <class... A>
void add_edit(A&&... a) {
  model_edit::add_edit<OgfKind>(std::forward<A>(a)...);
}

void add_list(CLI::App& ogf, int& exit_code) {
  auto* cmd = ogf.add_subcommand("list", "List the children (index, type, links, vertices, triangles, texture, "
                                         "shader), the motion refs and the user data's size");
  auto file = std::make_shared<std::string>();
  cmd->add_option("file", *file, ".ogf file")->required();
  cmd->callback([file, &exit_code] {
    auto f = read_or_report(*file, exit_code);
    if (!f) return;
    for (const auto& c : xray::list_children(f->file)) {
      if (!c.readable) {
        std::printf("%4u  (unreadable)\n", c.index);
        continue;
      }
      std::printf("%4u  type %u  %s  %6u verts %6u tris  %s  %s\n", c.index, c.type,
                  c.links > 0 ? (std::to_string(c.links) + "-link").c_str() : "static", c.vertices, c.triangles,
                  c.texture.c_str(), c.shader.c_str());
    }
    if (!f->file.motion_refs.empty()) {
      std::string refs;
      for (const auto& r : f->file.motion_refs) refs += (refs.empty() ? "" : ", ") + cp1251_to_utf8(r);
      std::printf("motion refs: %s\n", refs.c_str());
    }
    if (f->file.user_data) std::printf("user data: %zu bytes\n", f->file.user_data->size());
  });
}

struct SetArgs {
  std::vector<std::string> children;
  std::optional<std::string> texture, shader;
};

void add_set(CLI::App& ogf, int& exit_code) {
  auto a = std::make_shared<SetArgs>();
  auto selectors = std::make_shared<std::vector<std::string>>();
  add_edit(
      ogf, "set", "Set the texture and/or shader of the chosen children", exit_code,
      [a](CLI::App& c) {
        c.add_option("-c,--child", a->children,
                     "Child index, or glob over texture names (* ?, ignoring case); repeatable")
            ->required();
        c.add_option("--texture", a->texture, "New texture path (e.g. act\\act_stalker_novice)");
        c.add_option("--shader", a->shader, "New shader (e.g. models\\model)");
      },
      [a](OgfFile& f) { return xray::set_child_material(f, a->children, a->texture, a->shader); },
      [a, selectors]() -> std::optional<std::string> {
        *selectors = a->children;
        if (!a->texture && !a->shader) return "say what to set: --texture and/or --shader";
        return std::nullopt;
      },
      selectors);
}

struct RefsArgs {
  std::vector<std::string> refs;
  bool none = false;
  std::string game;
};

void add_motion_refs(CLI::App& ogf, int& exit_code) {
  auto a = std::make_shared<RefsArgs>();
  add_edit(
      ogf, "motion-refs", "Replace the motion refs (the model's refs chunk kept)", exit_code,
      [a](CLI::App& c) {
        c.add_option("--ref", a->refs, "A motion ref, e.g. stalker_animation; repeatable, in order");
        c.add_flag("--none", a->none, "Remove the refs");
        c.add_option("--game", a->game, "For a model without refs: soc (0x13) or cs/cop (0x18)")
            ->check(CLI::IsMember({"soc", "cs", "cop"}));
      },
      [a](OgfFile& f) { return xray::set_motion_refs(f, a->none ? std::vector<std::string>{} : a->refs,
                                                     xray::parse_game(a->game).value_or(xray::Game::keep)); },
      [a]() -> std::optional<std::string> {
        if (a->none == a->refs.empty()) return std::nullopt;
        return a->none ? "--none and --ref exclude each other" : "say the refs: --ref NAME (repeatable) or --none";
      });
}

struct UserDataArgs {
  std::optional<std::string> text;
  bool none = false;
};

void add_user_data(CLI::App& ogf, int& exit_code) {
  auto a = std::make_shared<UserDataArgs>();
  add_edit(
      ogf, "userdata", "Replace the user data (ini text) or remove it", exit_code,
      [a](CLI::App& c) {
        c.add_option("--text", a->text, "The new user data (ini text, UTF-8)");
        c.add_flag("--none", a->none, "Remove the user data");
      },
      [a](OgfFile& f) { return xray::set_user_data(f, a->none ? std::string() : *a->text); },
      [a]() -> std::optional<std::string> {
        if (a->none != a->text.has_value()) return std::nullopt;
        return a->none ? "--none and --text exclude each other" : "say the user data: --text TEXT or --none";
      });
}

void add_retarget(CLI::App& ogf, int& exit_code) {
  auto game = std::make_shared<std::string>();
  add_edit(
      ogf, "retarget", "Rewrite for another game (soc: 1-2 links, weights beyond reduced and reported)", exit_code,
      [game](CLI::App& c) { c.add_option("--game", *game, "soc, cs or cop")->required()->check(CLI::IsMember({"soc", "cs", "cop"})); },
      [game](OgfFile& f) { return xray::retarget_ogf(f, xray::parse_game(*game).value_or(xray::Game::keep)); });
}

}  // namespace ogf_cmd

void add_ogf_command(CLI::App& app, int& exit_code) {
  auto* ogf = app.add_subcommand("ogf", "Edit .ogf models (what an edit does not touch keeps its bytes)");
  ogf->require_subcommand(1);
  ogf_cmd::add_list(*ogf, exit_code);
  ogf_cmd::add_set(*ogf, exit_code);
  ogf_cmd::add_motion_refs(*ogf, exit_code);
  ogf_cmd::add_user_data(*ogf, exit_code);
  ogf_cmd::add_retarget(*ogf, exit_code);
}

}  // namespace boneyard::cli
