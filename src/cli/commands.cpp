#include "commands.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "boneyard/core/file_io.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/core/paths.h"
#include "boneyard/mgs2/strcode.h"
#include "boneyard/registry/convert_options.h"
#include "boneyard/registry/convert_request.h"
#include "boneyard/registry/document.h"

namespace boneyard::cli {

namespace {

namespace fs = std::filesystem;

void add_layout_option(CLI::App& cmd, CommonOptions& o) {
  cmd.add_option("--layout", o.layout, "MGS2 only: force the PS2 (32-bit) or Master Collection (64-bit) layout")
      ->check(CLI::IsMember({"ps2", "mc"}));
}

// --names and --allow-outside-uris say on every command what they say on `convert` (their rows).
std::string convert_option_help(std::string_view name) { return std::string(find_convert_option(name)->help); }

void add_names_option(CLI::App& cmd, CommonOptions& o) {
  cmd.add_option("--names", o.names_file, convert_option_help("names"));
}

// The --names table, loaded once per run; nullptr when the option is absent or unreadable (said
// once, however many files the command has).
const TextureNames* load_names(const CommonOptions& common, int& exit_code) {
  static TextureNames names;
  static bool loaded = false, failed = false;
  if (common.names_file.empty() || failed) return nullptr;
  if (!loaded) {
    if (auto read = load_texture_names(names, path_from_utf8(common.names_file)); !read) {
      std::fprintf(stderr, "%s\n", read.error().message.c_str());
      exit_code = kExitUsage;
      failed = true;
      return nullptr;
    }
    loaded = true;
  }
  return &names;
}

}  // namespace

std::unique_ptr<Document> open_or_report(const std::string& path, const CommonOptions& common, int& exit_code) {
  auto file = open_file_or_report(path, exit_code);
  if (!file) return nullptr;
  OpenOptions options;
  options.layout = common.layout;
  options.allow_outside_uris = common.allow_outside_uris;
  options.names = load_names(common, exit_code);
  if (!common.names_file.empty() && options.names == nullptr) return nullptr;
  auto doc = open_document(std::move(file), path, options);
  if (!doc) {
    std::fprintf(stderr, "%s\n", format_finding(doc.error(), path).c_str());
    exit_code = std::max(exit_code, exit_code_for(doc.error()));
    return nullptr;
  }
  return std::move(doc).value();
}

std::shared_ptr<const FileData> open_file_or_report(const std::string& path, int& exit_code) {
  auto opened = FileData::open(path_from_utf8(path));
  if (!opened) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), opened.error().message.c_str());
    exit_code = std::max(exit_code, kExitUsage);
    return nullptr;
  }
  return std::move(opened).value();
}

int exit_code_for(const Finding& f) { return f.io || f.usage ? kExitUsage : kExitFindings; }

bool option_file_ok(const char* option, const std::string& path, int& exit_code) {
  if (path.empty()) return true;
  const auto regular = check_regular_file(path_from_utf8(path));
  if (regular) return true;
  std::fprintf(stderr, "%s %s: %s\n", option, path.c_str(), regular.error().message.c_str());
  exit_code = kExitUsage;
  return false;
}

void add_allow_outside_uris_option(CLI::App& cmd, bool& allow) {
  cmd.add_flag("--allow-outside-uris", allow, convert_option_help("allow-outside-uris"));
}

void add_info_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("info", "Summarise files: versions, parts and bones, motions, key statistics");
  auto files = std::make_shared<std::vector<std::string>>();
  auto common = std::make_shared<CommonOptions>();
  cmd->add_option("files", *files, "Files to describe")->required();
  add_layout_option(*cmd, *common);
  add_names_option(*cmd, *common);
  add_allow_outside_uris_option(*cmd, common->allow_outside_uris);
  cmd->callback([files, common, &exit_code] {
    bool first = true;
    for (const auto& path : *files) {
      auto doc = open_or_report(path, *common, exit_code);
      if (!doc) continue;
      if (!first) std::fputc('\n', stdout);
      first = false;
      std::printf("%s\n%s", path.c_str(), doc->info().c_str());
    }
  });
}

void add_dump_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("dump", "Print a file as JSON (schema in docs/json-schema.md)");
  auto file = std::make_shared<std::string>();
  auto raw = std::make_shared<bool>(false);
  auto common = std::make_shared<CommonOptions>();
  cmd->add_option("file", *file, "File to dump")->required();
  cmd->add_flag("--raw", *raw, "Add the stored integers, sizes, inits and CRCs");
  add_layout_option(*cmd, *common);
  add_names_option(*cmd, *common);
  add_allow_outside_uris_option(*cmd, common->allow_outside_uris);
  cmd->callback([file, raw, common, &exit_code] {
    auto doc = open_or_report(*file, *common, exit_code);
    if (!doc) return;
    DumpOptions options;
    options.raw = *raw;
    options.names = load_names(*common, exit_code);
    JsonWriter out(stdout);
    doc->dump(out, options);
    out.newline();
    out.flush();
  });
}

void add_validate_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "validate", "Check files the way the engine reads them; exit 1 if any file has errors");
  auto files = std::make_shared<std::vector<std::string>>();
  auto strict = std::make_shared<bool>(false);
  auto show_info = std::make_shared<bool>(false);
  auto quiet = std::make_shared<bool>(false);
  auto common = std::make_shared<CommonOptions>();
  cmd->add_option("files", *files, "Files to check")->required();
  cmd->add_flag("--strict", *strict, "Count warnings as errors");
  cmd->add_flag("--info", *show_info, "Also print info findings");
  cmd->add_flag("-q,--quiet", *quiet, "Print only the per-file summary lines");
  auto cmdl = std::make_shared<std::string>();
  cmd->add_option("--cmdl", *cmdl,
                  "MGS2: also check the Master Collection model (the one FILE, a .kms or .evm) against this .cmdl, the way "
                  "the game reads the pair");
  auto skeleton = std::make_shared<std::string>();
  cmd->add_option("--skeleton", *skeleton,
                  "MGS2: also check the motions (the one FILE, a .mar) against the skeleton of this .kms or .evm: joints "
                  "each motion drives, max_joint")
      ->excludes("--cmdl");
  add_layout_option(*cmd, *common);
  add_names_option(*cmd, *common);
  add_allow_outside_uris_option(*cmd, common->allow_outside_uris);
  cmd->callback([files, strict, show_info, quiet, common, cmdl, skeleton, &exit_code] {
    const auto report = [&](const std::string& path, const std::string& what, const Diagnostics& d) {
      if (!*quiet) {
        for (const auto& f : d.findings()) {
          if (f.severity == Severity::info && !*show_info) continue;
          std::printf("%s\n", format_finding(f, path).c_str());
        }
      }
      const std::size_t errors = d.count(Severity::error);
      const std::size_t warnings = d.count(Severity::warning);
      const bool failed = errors > 0 || (*strict && warnings > 0);
      std::printf("%s: %s (%s): %zu error%s, %zu warning%s, %zu info\n", path.c_str(), failed ? "FAIL" : "ok", what.c_str(),
                  errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s", d.count(Severity::info));
      if (failed) exit_code = std::max(exit_code, kExitFindings);
    };
    if (!cmdl->empty() && files->size() != 1) {
      std::fprintf(stderr, "--cmdl checks one model against its .cmdl: give exactly one FILE (found %zu)\n", files->size());
      exit_code = kExitUsage;
      return;
    }
    if (!skeleton->empty() && files->size() != 1) {
      std::fprintf(stderr, "--skeleton checks one .mar against its model: give exactly one FILE (found %zu)\n", files->size());
      exit_code = kExitUsage;
      return;
    }
    for (const auto& path : *files) {
      auto doc = open_or_report(path, *common, exit_code);
      if (!doc) continue;
      if (!skeleton->empty()) {
        // The motions' findings and the check against the skeleton, as one report of the .mar.
        CommonOptions detect = *common;
        detect.layout.clear();  // --layout is the .mar's
        auto model = open_or_report(*skeleton, detect, exit_code);
        if (!model) continue;
        auto pair = validate_pair(*model, *doc);
        if (!pair) {
          std::fprintf(stderr, "%s\n", describe_failure(pair.error(), *skeleton).c_str());
          exit_code = std::max(exit_code, exit_code_for(pair.error()));
          continue;
        }
        Diagnostics all = doc->validate();
        for (const auto& f : pair.value().findings()) all.add(f);
        report(path, std::string(doc->format()) + " on " + *skeleton, all);
        continue;
      }
      report(path, std::string(doc->format()), doc->validate());
      if (cmdl->empty()) continue;
      CommonOptions detect = *common;
      detect.layout.clear();  // --layout is the model's
      auto companion = open_or_report(*cmdl, detect, exit_code);
      if (!companion) continue;
      auto pair = validate_pair(*doc, *companion);
      if (!pair) {
        std::fprintf(stderr, "%s\n", describe_failure(pair.error(), *cmdl).c_str());
        exit_code = std::max(exit_code, exit_code_for(pair.error()));
        continue;
      }
      Diagnostics all = companion->validate();
      for (const auto& f : pair.value().findings()) all.add(f);
      report(*cmdl, std::string(companion->format()) + " with " + path, all);
    }
  });
}

std::string file_name_taken_for_option(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--") break;
    if (a.size() < 3 || a[0] != '-') continue;
    std::string_view name;
    if (a[1] == '-') {
      name = a.substr(2, a.find('=') == std::string_view::npos ? std::string_view::npos : a.find('=') - 2);
    } else {
      // A short option with its value attached (-ofile.glb, -j4) is one; a number is a value.
      if (a[1] == 'o' || a[1] == 'j' || (a[1] >= '0' && a[1] <= '9') || a[1] == '.') continue;
      name = a.substr(1);
    }
    if (name.find_first_of("./\\") != std::string_view::npos) return std::string(a);
  }
  return {};
}

void print_edit_report(const xray::EditReport& report, const char* indent) {
  for (const auto& c : report.changes) std::printf("%s%s\n", indent, c.c_str());
  for (const auto& w : report.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
}

}  // namespace boneyard::cli
