// `boneyard object ...`: list, set (surfaces), motion-refs, userdata and bones (load a .bones file),
// on one object (-o or --in-place) or every .object under a folder (--recursive, in place or
// --dry-run). Argument parsing only; the edits are in xray/object/object_edit.h, the flow in
// registry/object_edits.h (shared with Python's boneyard.Object).
#include <cstdio>

#include "boneyard/registry/object_edits.h"
#include "boneyard/xray/object/object_edit.h"
#include "commands.h"
#include "model_edit_cmd.h"

namespace boneyard::cli {

namespace object_cmd {

struct ObjectKind {
  using Edit = ObjectEdit;
  using Fn = ObjectEditFn;
  static constexpr const char* ext = ".object";
  static constexpr const char* part = "surface";
  static Result<Edit> read(std::shared_ptr<const FileData> d, std::filesystem::path p) {
    return read_object_edit(std::move(d), std::move(p));
  }
  static Result<std::vector<std::uint8_t>> bytes(const Edit& e) { return object_edit_bytes(e); }
  static Result<SavedOgf> save(const Edit& e, const std::filesystem::path& o) { return save_object_edit(e, o); }
  static Result<std::vector<FolderEditItem>> folder(const std::filesystem::path& f, const std::vector<std::string>& sel,
                                                    const Fn& edit, bool dry_run) {
    return edit_object_folder(f, sel, edit, dry_run);
  }
};

void add_list(CLI::App& parent, int& exit_code) {
  auto* cmd = parent.add_subcommand("list", "List the surfaces (index, faces, texture, shader, compiler shader, game "
                                            "material, two-sided), the motion refs and the user data's size");
  auto file = std::make_shared<std::string>();
  cmd->add_option("file", *file, ".object file")->required();
  cmd->callback([file, &exit_code] {
    auto f = model_edit::read_or_report<ObjectKind>(*file, exit_code);
    if (!f) return;
    for (const auto& s : xray::list_surfaces(f->file))
      std::printf("%4zu  %6zu faces  %s  texture %s  shader %s  compiler %s  material %s%s\n", s.index, s.faces, s.name.c_str(),
                  s.texture.c_str(), s.shader.c_str(), s.compiler_shader.c_str(), s.game_mtl.c_str(),
                  s.two_sided ? "  two-sided" : "");
    if (!f->file.motion_refs.empty()) {
      std::string refs;
      for (const auto& r : f->file.motion_refs) refs += (refs.empty() ? "" : ", ") + cp1251_to_utf8(r);
      std::printf("motion refs: %s\n", refs.c_str());
    }
    if (f->file.user_data && !f->file.user_data->empty()) std::printf("user data: %zu bytes\n", f->file.user_data->size());
  });
}

struct SetArgs {
  std::vector<std::string> surfaces;
  xray::SurfaceChange change;
  std::string two_sided;
};

void add_set(CLI::App& parent, int& exit_code) {
  auto a = std::make_shared<SetArgs>();
  auto selectors = std::make_shared<std::vector<std::string>>();
  model_edit::add_edit<ObjectKind>(
      parent, "set", "Set the texture, shaders, game material or sidedness of the chosen surfaces", exit_code,
      [a](CLI::App& c) {
        c.add_option("-s,--surface", a->surfaces,
                     "Surface index, or glob over surface names or textures (* ?, ignoring case); repeatable")
            ->required();
        c.add_option("--texture", a->change.texture, "New texture path (e.g. wpn\\wpn_ak74)");
        c.add_option("--shader", a->change.shader, "New engine shader (e.g. models\\model)");
        c.add_option("--compiler-shader", a->change.compiler_shader, "New compiler shader (e.g. default)");
        c.add_option("--game-mtl", a->change.game_mtl, "New game material (e.g. objects\\metal)");
        c.add_option("--two-sided", a->two_sided, "on or off")->check(CLI::IsMember({"on", "off"}));
      },
      [a](xray::ObjectFile& f) {
        xray::SurfaceChange change = a->change;
        if (!a->two_sided.empty()) change.two_sided = a->two_sided == "on";
        return xray::set_surfaces(f, a->surfaces, change);
      },
      [a, selectors]() -> std::optional<std::string> {
        *selectors = a->surfaces;
        if (a->change.empty() && a->two_sided.empty())
          return "say what to set: --texture, --shader, --compiler-shader, --game-mtl and/or --two-sided";
        return std::nullopt;
      },
      selectors);
}

struct RefsArgs {
  std::vector<std::string> refs;
  bool none = false;
  std::string game;
};

void add_motion_refs(CLI::App& parent, int& exit_code) {
  auto a = std::make_shared<RefsArgs>();
  model_edit::add_edit<ObjectKind>(
      parent, "motion-refs", "Replace the motion refs (the object's refs chunk kept)", exit_code,
      [a](CLI::App& c) {
        c.add_option("--ref", a->refs, "A motion ref (a .skls path without extension); repeatable, in order");
        c.add_flag("--none", a->none, "Remove the refs");
        c.add_option("--game", a->game, "For an object without refs: soc (0x924) or cs/cop (0x926)")
            ->check(CLI::IsMember({"soc", "cs", "cop"}));
      },
      [a](xray::ObjectFile& f) {
        return xray::set_object_motion_refs(f, a->none ? std::vector<std::string>{} : a->refs,
                                            xray::parse_game(a->game).value_or(xray::Game::keep));
      },
      [a]() -> std::optional<std::string> {
        if (a->none == a->refs.empty()) return std::nullopt;
        return a->none ? "--none and --ref exclude each other" : "say the refs: --ref NAME (repeatable) or --none";
      });
}

void add_user_data(CLI::App& parent, int& exit_code) {
  auto text = std::make_shared<std::optional<std::string>>();
  model_edit::add_edit<ObjectKind>(
      parent, "userdata", "Replace the user data (the object's class script)", exit_code,
      [text](CLI::App& c) { c.add_option("--text", *text, "The new user data (UTF-8; \"\" for none)")->required(); },
      [text](xray::ObjectFile& f) { return xray::set_object_user_data(f, text->value_or("")); });
}

void add_bones(CLI::App& parent, int& exit_code) {
  auto file = std::make_shared<std::string>();
  auto data = std::make_shared<std::optional<xray::BonesFile>>();
  model_edit::add_edit<ObjectKind>(
      parent, "bones",
      "Load bone data from a .bones file (the Actor Editor's Bones > Load: material, shape, joint, mass by bone "
      "name; the parts)",
      exit_code, [file](CLI::App& c) { c.add_option("--from", *file, "The .bones file")->required(); },
      [data](xray::ObjectFile& f) -> Result<xray::EditReport> {
        if (!*data) return Finding{Severity::error, 0, "", "no bone data read", {}, {}};
        return xray::load_object_bones(f, **data);
      },
      [file, data, &exit_code]() -> std::optional<std::string> {
        int code = kExitOk;
        auto bytes = open_file_or_report(*file, code);
        if (!bytes) return "cannot read --from " + *file;
        auto read = xray::read_bones(bytes);
        if (!read) return "--from " + *file + ": " + format_finding(read.error(), *file);
        *data = std::move(read).value();
        (void)exit_code;
        return std::nullopt;
      });
}

}  // namespace object_cmd

void add_object_command(CLI::App& app, int& exit_code) {
  auto* object = app.add_subcommand("object", "Edit the SDK's .object models (what an edit does not touch keeps its bytes)");
  object->require_subcommand(1);
  object_cmd::add_list(*object, exit_code);
  object_cmd::add_set(*object, exit_code);
  object_cmd::add_motion_refs(*object, exit_code);
  object_cmd::add_user_data(*object, exit_code);
  object_cmd::add_bones(*object, exit_code);
}

}  // namespace boneyard::cli
