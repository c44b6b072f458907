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

namespace boneyard::cli {

// Named, not anonymous: the CLI is a unity build, and cmd_omf.cpp's helpers have the same names.
namespace ogf_cmd {

using xray::EditReport;
using xray::OgfFile;

struct Target {
  std::string output;
  bool in_place = false;
  bool dry_run = false;
  bool recursive = false;
};

void add_target_options(CLI::App& cmd, Target& t) {
  auto* out = cmd.add_option("-o,--output", t.output, "Write the result here");
  auto* in_place = cmd.add_flag("--in-place", t.in_place, "Replace the input, keeping the original as FILE.bak");
  auto* dry = cmd.add_flag("--dry-run", t.dry_run, "Say what would change; write nothing");
  cmd.add_flag("-r,--recursive", t.recursive,
               "The input is a folder: edit every .ogf under it (with --in-place or --dry-run)");
  out->excludes(in_place);
  out->excludes(dry);
  in_place->excludes(dry);
}

int fail_usage(const std::string& input, const std::string& why) {
  std::fprintf(stderr, "%s: error: %s\n", input.c_str(), why.c_str());
  return kExitUsage;
}

// A refused edit: 2 when the request itself is a usage problem, else 1 (a name the format
// cannot hold is a finding about the result, as for `omf`).
int edit_failed(const std::string& input, const Finding& f) {
  std::fprintf(stderr, "%s\n", describe_edit_failure(f, input).c_str());
  return f.usage || f.io ? kExitUsage : kExitFindings;
}

std::optional<OgfEdit> read_or_report(const std::string& path, int& exit_code) {
  auto data = open_file_or_report(path, exit_code);
  if (!data) return std::nullopt;
  auto f = read_ogf_edit(data, path_from_utf8(path));
  if (!f) {
    std::fprintf(stderr, "%s\n", format_finding(f.error(), path).c_str());
    exit_code = std::max(exit_code, kExitFindings);
    return std::nullopt;
  }
  return std::move(f).value();
}

// One model: edited, checked, then written to -o or in place (nothing with --dry-run, but the
// result is still read back and validated). The changes are reported once they are written.
int edit_file(const std::string& input, const Target& t, const OgfEditFn& edit) {
  if (t.output.empty() && !t.in_place && !t.dry_run)
    return fail_usage(input, "say where the result goes: -o FILE, --in-place or --dry-run");
  int code = kExitOk;
  auto f = read_or_report(input, code);
  if (!f) return code;
  auto report = edit(f->file);
  if (!report) return edit_failed(input, report.error());
  if (t.dry_run) {
    const auto bytes = ogf_edit_bytes(*f);
    if (!bytes) return edit_failed(input, bytes.error());
    std::printf("%s: would change (dry run, nothing written)\n", input.c_str());
    print_edit_report(report.value());
    return kExitOk;
  }
  const auto saved = save_ogf_edit(*f, t.in_place ? std::filesystem::path() : path_from_utf8(t.output));
  if (!saved) {
    const Finding& fnd = saved.error();
    if (fnd.usage) {
      std::fprintf(stderr, "%s: %s; use --in-place to replace it (keeps a .bak)\n", t.output.c_str(), fnd.message.c_str());
      return kExitUsage;
    }
    if (!fnd.io) {
      std::fprintf(stderr, "%s\n", format_finding(fnd, input).c_str());
      return kExitFindings;
    }
    std::fprintf(stderr, "%s: error: %s\n", (t.in_place ? input : t.output).c_str(), fnd.message.c_str());
    return kExitUsage;
  }
  print_edit_report(report.value());
  if (t.in_place)
    std::printf("wrote %s (%zu bytes), original kept as %s\n", input.c_str(), saved.value().size,
                path_to_utf8(saved.value().backup).c_str());
  else
    std::printf("wrote %s (%zu bytes)\n", t.output.c_str(), saved.value().size);
  return kExitOk;
}

// Every .ogf under the folder: each model's outcome and changes, then the counts. Exit 1 when a
// model could not be edited (the others are done).
int edit_folder(const std::string& folder, const Target& t, const std::vector<std::string>& selectors,
                const OgfEditFn& edit) {
  if (!t.output.empty()) return fail_usage(folder, "--recursive edits in place: use --in-place or --dry-run, not -o");
  if (!t.in_place && !t.dry_run) return fail_usage(folder, "--recursive needs --in-place or --dry-run");
  auto items = edit_ogf_folder(path_from_utf8(folder), selectors, edit, t.dry_run);
  if (!items) {
    std::fprintf(stderr, "%s\n", describe_failure(items.error(), folder).c_str());
    return kExitUsage;
  }
  std::size_t changed = 0, unchanged = 0, unmatched = 0, failed = 0;
  for (const auto& item : items.value()) {
    const std::string name = path_to_utf8(item.file);
    switch (item.outcome) {
      case FolderEditItem::Outcome::changed:
        ++changed;
        if (t.dry_run) std::printf("%s: would change\n", name.c_str());
        else std::printf("%s: changed, original kept as %s\n", name.c_str(), path_to_utf8(item.backup).c_str());
        print_edit_report(item.report);
        break;
      case FolderEditItem::Outcome::unchanged:
        ++unchanged;
        std::printf("%s: unchanged\n", name.c_str());
        break;
      case FolderEditItem::Outcome::not_matched:
        ++unmatched;
        std::printf("%s: no matching child\n", name.c_str());
        break;
      case FolderEditItem::Outcome::failed:
        ++failed;
        std::fprintf(stderr, "%s\n", describe_edit_failure(item.status.error(), name).c_str());
        break;
    }
  }
  std::printf("%zu %s, %zu unchanged, %zu without a matching child, %zu failed\n", changed,
              t.dry_run ? "would change" : "changed", unchanged, unmatched, failed);
  return failed > 0 ? kExitFindings : kExitOk;
}

using UsageCheck = std::function<std::optional<std::string>()>;

// Commands of the form: read IN (or each .ogf under it), apply an edit, write the result.
// `selectors` (may be null) are the children the edit picks: a folder's model where none matches
// is left alone.
void add_edit(CLI::App& ogf, const char* name, const char* help, int& exit_code,
              const std::function<void(CLI::App&)>& options, OgfEditFn edit, UsageCheck usage_check = {},
              std::shared_ptr<std::vector<std::string>> selectors = nullptr) {
  auto* cmd = ogf.add_subcommand(name, help);
  auto input = std::make_shared<std::string>();
  auto target = std::make_shared<Target>();
  cmd->add_option("input", *input, ".ogf file to edit (a folder with --recursive)")->required();
  options(*cmd);
  add_target_options(*cmd, *target);
  cmd->callback([input, target, edit, usage_check, selectors, &exit_code] {
    if (usage_check)
      if (auto why = usage_check()) {
        exit_code = std::max(exit_code, fail_usage(*input, *why));
        return;
      }
    const int code = target->recursive
                         ? edit_folder(*input, *target, selectors ? *selectors : std::vector<std::string>{}, edit)
                         : edit_file(*input, *target, edit);
    exit_code = std::max(exit_code, code);
  });
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
