// `boneyard mc-register`: the index lines an edited Master Collection model needs in each stage
// that loads it, written as a mod's own manifest_<mod>.txt / bp_assets_<mod>.txt (docs/mgs2-mc-index.md
// "Registering a model"). The registry reads the model, its .cmdl, the .ctxr names and the game's
// indices; mgs2/mc_index lays out the lines.
#include "boneyard/registry/mc_register.h"

#include <algorithm>
#include <map>
#include <set>
#include <system_error>

#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/mgs2/cmdl/cmdl.h"
#include "boneyard/mgs2/evm/evm.h"
#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/mgs2/strcode.h"
#include "boneyard/registry/convert_request.h"
#include "boneyard/registry/output_plan.h"
#include "formats.h"

namespace boneyard {

namespace fs = std::filesystem;
using mgs2::McIndexEntry;
using mgs2::McIndexKind;

namespace {

bool plain_name(std::string_view s, std::string_view extra) {
  return !s.empty() && s != "." && s != ".." && std::all_of(s.begin(), s.end(), [&](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           extra.find(c) != std::string_view::npos;
  });
}

Status check_names(const McRegisterOptions& o) {
  const auto refuse = [](const std::string& what, const std::string& value, const char* takes) {
    return usage_error_finding(what + " \"" + escape_controls(value) + "\" is not " + takes);
  };
  if (!plain_name(o.mod, "-.")) return refuse("--mod", o.mod, "a plain name (letters, digits, _ - .)");
  if (o.stages.empty() && o.game.empty())
    return usage_error_finding("--stage: give the stage (or stages) that load the model, e.g. w24c or r_plt0 (or --game DIR to find them)");
  for (const auto& s : o.stages)
    if (!plain_name(s, "")) return refuse("--stage", s, "a stage name (letters, digits, _)");
  if (o.langs.empty()) return usage_error_finding("--lang: give eu, jp or both");
  for (const auto& l : o.langs)
    if (!plain_name(l, "")) return refuse("--lang", l, "a folder name such as eu or jp");
  if (!plain_name(o.region, "")) return refuse("--region", o.region, "a region such as us");
  if (!o.tri.empty() && !plain_name(o.tri, "-.")) return refuse("--tri", o.tri, "a .tri's name without folders or extension");
  if (!o.tri.empty() && o.no_tri) return usage_error_finding("--tri and --no-tri exclude each other");
  if (o.output.empty() && !o.dry_run) return usage_error_finding("-o DIR: the folder the index files go into (or --dry-run)");
  return {};
}

// The model as the registration needs it: its kind, texture group and texture ids (first use).
struct ModelFacts {
  std::string kind;  // "kms" / "evm"
  std::uint32_t group = 0;
  std::vector<std::uint32_t> textures;
};

template <class Packet>
void collect_textures(const Packet& p, std::vector<std::uint32_t>& out, std::set<std::uint32_t>& seen) {
  for (auto id : p.tex_id)
    if (id != 0 && seen.insert(id).second) out.push_back(id);
}

Finding about_file(const fs::path& file, Finding f) {
  f.message = path_to_utf8(file) + ": " + f.message;
  return f;
}

// The first error of `d`, naming the file, with how many there are.
std::optional<Finding> first_error(const Diagnostics& d, const fs::path& file, const std::string& why) {
  const auto errors = d.errors();
  if (errors.empty()) return std::nullopt;
  Finding f = about_file(file, errors.front());
  f.message += " (" + std::to_string(errors.size()) + " error" + (errors.size() == 1 ? "" : "s") + "; " + why + ")";
  return f;
}

Result<ModelFacts> read_model(const McRegisterOptions& o, OutputPlan& plan) {
  plan.add_read(o.model, "the model");
  auto file = FileData::open(o.model);
  if (!file) return io_error_finding({}, path_to_utf8(o.model) + ": " + file.error().message);
  const std::string_view kind = detect_format(file.value()->bytes(), path_to_utf8(o.model.filename()));
  const fs::path cmdl_path = o.cmdl.empty() ? registry::cmdl_beside(o.model) : o.cmdl;
  plan.add_read(cmdl_path, "the model's .cmdl");
  ModelFacts facts;
  facts.kind = std::string(kind);
  std::set<std::uint32_t> seen;
  Diagnostics checks;
  const auto facts_of = [&](const auto& model) -> Status {
    if (model.layout != mgs2::Layout::mc)
      return usage_error_finding(path_to_utf8(o.model) +
                                 " is in the PS2 layout: the Master Collection loads its own layout (boneyard convert MODEL -o "
                                 "OUT --layout mc writes it with its .cmdl)");
    facts.group = model.header.texture;
    auto cmdl_file = FileData::open(cmdl_path);
    if (!cmdl_file)
      return io_error_finding({}, path_to_utf8(cmdl_path) + ": " + cmdl_file.error().message +
                                      " (the Master Collection draws a model from its .cmdl; give --cmdl PATH)");
    auto cmdl = mgs2::read_cmdl(cmdl_file.value());
    if (!cmdl) return about_file(cmdl_path, cmdl.error());
    checks = [&] {
      if constexpr (std::is_same_v<std::decay_t<decltype(model)>, mgs2::KmsFile>) return mgs2::validate_kms(model);
      else return mgs2::validate_evm(model);
    }();
    if (auto e = first_error(checks, o.model, "the game would not load it; boneyard validate lists them")) return *e;
    Diagnostics pair = mgs2::validate_cmdl(cmdl.value());
    mgs2::check_cmdl_pair(model, cmdl.value(), pair);
    if (auto e = first_error(pair, cmdl_path, "a .cmdl that disagrees with its model hangs the game; boneyard validate MODEL --cmdl "
                                              "lists them, boneyard convert MODEL -o OUT writes a matching one"))
      return *e;
    return {};
  };
  if (kind == "kms") {
    auto m = mgs2::read_kms(file.value());
    if (!m) return about_file(o.model, m.error());
    if (auto ok = facts_of(m.value()); !ok) return ok.error();
    for (const auto& u : m.value().units)
      for (const auto& p : u.packets) collect_textures(p, facts.textures, seen);
  } else if (kind == "evm") {
    auto m = mgs2::read_evm(file.value());
    if (!m) return about_file(o.model, m.error());
    if (auto ok = facts_of(m.value()); !ok) return ok.error();
    for (const auto& p : m.value().packets) collect_textures(p, facts.textures, seen);
  } else {
    return usage_error_finding(path_to_utf8(o.model) + " is not a .kms or .evm (" + (kind.empty() ? std::string("unrecognised") : std::string(kind)) +
                               "): mc-register registers an MGS2 model");
  }
  return facts;
}

// The lines of one of the game's index files: exact texts, MGSHDFix's merge keys (the cache and
// target paths) and the target paths the game loads.
struct GameIndex {
  std::set<std::string> lines;
  std::map<std::string, std::string> by_key;     // key -> the line
  std::map<std::string, std::string> by_target;  // target -> the line
};

Result<GameIndex> read_game_index(const fs::path& path, OutputPlan& plan) {
  plan.add_read(path, "the game's index");
  auto file = FileData::open(path);
  if (!file) return io_error_finding({}, path_to_utf8(path) + ": " + file.error().message + " (is the stage right, and --game the game's folder?)");
  GameIndex g;
  mgs2::for_each_mc_index_line(file.value()->bytes(), [&](const mgs2::McIndexLine& l) {
    if (const auto e = mgs2::parse_mc_index_line(l.text)) {
      g.lines.emplace(l.text);
      g.by_key.emplace(e->key(), std::string(l.text));
      g.by_target.emplace(e->target, std::string(l.text));
    }
  });
  return g;
}

// The stages whose game index lists `pool` (the model's pool file), in each of `langs`' folders.
std::vector<std::string> stages_listing(const fs::path& game, const std::vector<std::string>& langs, const std::string& pool) {
  std::set<std::string> found;
  for (const auto& lang : langs) {
    std::error_code ec;
    for (fs::directory_iterator it(game / lang / "stage", ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path manifest = it->path() / "manifest.txt";
      if (!fs::is_regular_file(manifest, ec)) continue;
      auto file = FileData::open(manifest);
      if (!file) continue;
      bool listed = false;
      mgs2::for_each_mc_index_line(file.value()->bytes(), [&](const mgs2::McIndexLine& l) {
        if (!listed && l.text.substr(0, pool.size() + 1) == pool + ",") listed = true;
      });
      if (listed) found.insert(path_to_utf8(it->path().filename()));
    }
  }
  return {found.begin(), found.end()};
}

}  // namespace

Result<McRegisterResult> mc_register(const McRegisterOptions& options) {
  McRegisterOptions o = options;
  if (auto ok = check_names(o); !ok) return ok.error();
  OutputPlan plan;
  auto model = read_model(o, plan);
  if (!model) return model.error();
  const ModelFacts& m = model.value();
  const std::string name = path_to_utf8(o.model.stem());
  const std::uint32_t model_id = mgs2::strcode(name);
  McRegisterResult result;
  if (o.stages.empty()) {  // --game without --stage: every stage that loads the model now
    const std::string pool = "assets/" + m.kind + "/" + o.region + "/" + name + "." + m.kind;
    o.stages = stages_listing(o.game, o.langs, pool);
    if (o.stages.empty())
      return usage_error_finding("no stage of " + path_to_utf8(o.game) + " lists " + pool + ": give --stage STAGE");
    std::string list;
    for (const auto& s : o.stages) list += (list.empty() ? "" : ", ") + s;
    result.notes.add(Severity::info, 0, "stages", "the stages whose manifest lists " + pool + ": " + list);
  }

  // Texture files: --textures, else the game's flatlist; --names for the rest.
  const fs::path textures = !o.textures.empty() ? o.textures : !o.game.empty() ? o.game / "textures" / "flatlist" : fs::path();
  std::map<std::uint32_t, std::string> files;
  if (!textures.empty()) {
    std::error_code ec;
    if (!fs::is_directory(textures, ec)) return io_error_finding({}, path_to_utf8(textures) + ": not a folder (--textures: where the .ctxr files are)");
    // The same names as a conversion's texture lookup (registry/formats.h): by the id stated, else
    // by StrCode24 of the name with or without ".bmp"; of several, the documented first.
    const registry::Mgs2TextureIndex found(textures, {".ctxr"});
    for (const auto id : m.textures)
      if (const auto f = found.find(id)) {
        files.emplace(id, path_to_utf8(f->path.filename()));
        if (f->others > 0)
          result.notes.add(Severity::info, 0, "textures",
                           "texture " + mgs2::mc_index_id(id) + ": " + std::to_string(f->others + 1) + " .ctxr files could be it; " +
                               "registered " + path_to_utf8(f->path.filename()) + ", not " + path_to_utf8(f->next.filename()) +
                               (f->others > 1 ? " or the others" : ""));
      }
  }
  if (!o.names.empty()) {
    plan.add_read(o.names, "the --names file");
    TextureNames names;
    if (auto read = load_texture_names(names, o.names); !read) return read.error();
    for (auto id : m.textures)
      if (files.count(id) == 0)
        if (const std::string* n = names.find(id)) {
          std::string bare = *n;
          if (bare.size() > 4 && lower_ascii(bare.substr(bare.size() - 4)) == ".bmp") bare.resize(bare.size() - 4);
          files.emplace(id, bare + ".bmp.ctxr");
        }
  }
  // The tri of the texture group: --tri, else the model's own name when the group is its hash.
  std::string tri = o.tri;
  if (tri.empty() && !o.no_tri && mgs2::strcode(name) == m.group) tri = name;

  std::vector<std::string> missing_textures;
  bool missing_tri = false;
  for (const auto& lang : o.langs) {
    for (const auto& stage : o.stages) {
      const fs::path folder = fs::path(lang) / "stage" / stage;
      std::optional<GameIndex> game_manifest, game_bp;
      if (!o.game.empty()) {
        auto a = read_game_index(o.game / folder / "manifest.txt", plan);
        if (!a) return a.error();
        auto b = read_game_index(o.game / folder / "bp_assets.txt", plan);
        if (!b) return b.error();
        game_manifest = std::move(a).value();
        game_bp = std::move(b).value();
      }
      // A line the game's index holds already is left out; one with the same cache and target
      // paths replaces the game's line (MGSHDFix merges by them); one with only the same target
      // (another file for the same texture) is added after it.
      const auto keep = [&](const std::optional<GameIndex>& game, const McIndexEntry& e, const fs::path& file) {
        if (!game) return true;
        if (game->lines.count(e.text()) != 0) {
          result.notes.add(Severity::info, 0, path_to_utf8(file), "already in the game's index: " + e.text());
          return false;
        }
        if (const auto it = game->by_key.find(e.key()); it != game->by_key.end()) {
          result.notes.add(Severity::info, 0, path_to_utf8(file), "replaces the game's line " + it->second);
        } else if (const auto t = game->by_target.find(e.target); t != game->by_target.end()) {
          result.notes.add(Severity::info, 0, path_to_utf8(file),
                           "registers " + e.target + " again, after the game's line " + t->second);
        }
        return true;
      };
      const auto has_target = [](const std::optional<GameIndex>& game, const McIndexEntry& e) {
        return game && game->by_target.count(e.target) != 0;
      };
      McRegisterFile manifest{o.output / folder / path_from_utf8("manifest_" + o.mod + ".txt"), McIndexKind::manifest, {}};
      McRegisterFile bp{o.output / folder / path_from_utf8("bp_assets_" + o.mod + ".txt"), McIndexKind::bp_assets, {}};
      if (!o.no_tri) {
        McIndexEntry slot = mgs2::manifest_entry("tri", o.region, tri.empty() ? "?" : tri, m.group, stage);
        if (tri.empty()) {
          if (!has_target(game_manifest, slot)) missing_tri = true;  // the game registers the slot, or the user must name it
        } else if (keep(game_manifest, slot, manifest.path)) {
          manifest.entries.push_back(slot);
        }
      }
      const McIndexEntry own = mgs2::manifest_entry(m.kind, o.region, name, model_id, stage);
      if (keep(game_manifest, own, manifest.path)) manifest.entries.push_back(own);
      for (auto id : m.textures) {
        const auto file = files.find(id);
        McIndexEntry line = mgs2::ctxr_entry(file != files.end() ? file->second : "?", m.group, id, stage, lang);
        if (file == files.end()) {
          if (!has_target(game_bp, line)) missing_textures.push_back(mgs2::mc_index_id(id));
          continue;
        }
        if (keep(game_bp, line, bp.path)) bp.entries.push_back(line);
      }
      const McIndexEntry cmdl = mgs2::cmdl_entry(m.kind, o.region, name, model_id, stage, lang);
      if (keep(game_bp, cmdl, bp.path)) bp.entries.push_back(cmdl);
      for (auto* f : {&manifest, &bp})
        if (!f->entries.empty()) result.files.push_back(std::move(*f));
    }
  }
  if (missing_tri)
    return usage_error_finding("the model's texture group " + mgs2::mc_index_id(m.group) + " is not StrCode24 of its name \"" + name +
                               "\": give --tri NAME (the .tri in assets/tri/" + o.region +
                               "/ that holds its textures), or --no-tri when the stage registers it already");
  if (!missing_textures.empty()) {
    std::sort(missing_textures.begin(), missing_textures.end());
    missing_textures.erase(std::unique(missing_textures.begin(), missing_textures.end()), missing_textures.end());
    std::string list;
    for (const auto& id : missing_textures) list += (list.empty() ? "" : ", ") + id;
    return Finding{Severity::error, 0, "textures",
                   std::to_string(missing_textures.size()) + " texture ids of the model have no .ctxr: give --textures DIR (the .ctxr "
                                                              "files) or --names FILE",
                   "a .ctxr whose name hashes to each id" + (textures.empty() ? std::string() : " under " + path_to_utf8(textures)), list};
  }

  // The files as they will be written, read back and validated, then written all together.
  std::vector<std::pair<fs::path, std::vector<std::uint8_t>>> out;
  for (const auto& f : result.files) {
    const std::string text = mgs2::mc_index_text(f.entries);
    std::vector<std::uint8_t> bytes(text.begin(), text.end());
    auto back = mgs2::read_mc_index(FileData::from_view(Bytes(bytes.data(), bytes.size()), nullptr), path_to_utf8(f.path.filename()));
    if (!back) return back.error();
    const Diagnostics checked = mgs2::validate_mc_index(back.value());
    for (const auto& finding : checked.findings())
      if (finding.severity != Severity::info) return about_file(f.path, finding);
    out.emplace_back(f.path, std::move(bytes));
  }
  if (o.dry_run || out.empty()) return result;
  if (auto written = registry::write_files_together(out, plan); !written) return written.error();
  return result;
}

}  // namespace boneyard
