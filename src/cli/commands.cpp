#include "commands.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "boneyard/core/text.h"
#include "boneyard/registry/batch.h"
#include "boneyard/registry/document.h"
#include "boneyard/core/file_io.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/core/paths.h"
#include "boneyard/mgs2/strcode.h"
#include "interrupt_scope.h"

namespace boneyard::cli {

namespace {

namespace fs = std::filesystem;

void add_layout_option(CLI::App& cmd, CommonOptions& o) {
  cmd.add_option("--layout", o.layout, "MGS2 only: force the PS2 (32-bit) or Master Collection (64-bit) layout")
      ->check(CLI::IsMember({"ps2", "mc"}));
}

void add_names_option(CLI::App& cmd, CommonOptions& o) {
  cmd.add_option("--names", o.names_file, "MGS2 only: file of names (one per line) to show texture ids as names");
}

// The --names table, loaded once per run; nullptr when the option is absent or unreadable (said
// once, however many files the command has).
const TextureNames* load_names(const CommonOptions& common, int& exit_code) {
  static TextureNames names;
  static bool loaded = false, failed = false;
  if (common.names_file.empty() || failed) return nullptr;
  if (!loaded) {
    if (auto read = names.load_file(common.names_file); !read) {
      std::fprintf(stderr, "%s\n", read.error().message.c_str());
      exit_code = kExitUsage;
      failed = true;
      return nullptr;
    }
    loaded = true;
  }
  return &names;
}

// Opens and parses one file; on failure prints one line to stderr and raises `exit_code`.
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

// CLI11's PositiveNumber message prints the largest double in full (300 digits): say it shortly.
CLI::Validator positive_scale() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double v = 0;
        if (CLI::detail::lexical_cast(text, v) && v > 0 && std::isfinite(v)) return {};
        return "must be a positive number of metres per model unit, e.g. 0.001 (found " + text.substr(0, 40) + ")";
      },
      "POSITIVE");
}

// What `convert --recursive` reads besides -o and --jobs: the batch is X-Ray models to glTF.
constexpr unsigned kBatchOptions = kOptMeshes | kOptTextures | kOptKeepGoing | kOptFloatRotations | kOptMotions;

// The ConvertOption bits of the options given on the command line.
unsigned given_convert_options(const CLI::App& cmd) {
  unsigned given = 0;
  for (unsigned bit = 1; bit <= kOptLast; bit <<= 1)
    if (cmd.count(std::string(convert_option_name(bit))) > 0) given |= bit;
  return given;
}

// The gate before every conversion: a file that validate rejects (errors, not warnings) is not
// converted, so a broken input never silently becomes a broken or emptier output. Prints the
// errors; returns true when the conversion must stop. --force converts anyway and says so.
bool refuse_invalid_input(const Document& doc, const std::string& ext, const ConvertOptions& options,
                          const std::string& path, bool force, int& exit_code) {
  const auto errors = doc.conversion_blockers(ext, options);
  if (errors.empty()) return false;
  for (const auto& f : errors) std::fprintf(stderr, "%s\n", format_finding(f, path).c_str());
  const char* plural = errors.size() == 1 ? "" : "s";
  if (force) {
    std::fprintf(stderr, "%s: warning: converting despite %zu validation error%s (--force)\n", path.c_str(),
                 errors.size(), plural);
    return false;
  }
  std::fprintf(stderr, "%s: not converted: %zu validation error%s (--force converts anyway)\n", path.c_str(),
               errors.size(), plural);
  exit_code = std::max(exit_code, kExitFindings);
  return true;
}

}  // namespace

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
  cmd.add_flag("--allow-outside-uris", allow,
               "glTF input: also read buffer URIs that are absolute or leave the .gltf's folder (trusted files only)");
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
  add_layout_option(*cmd, *common);
  add_names_option(*cmd, *common);
  add_allow_outside_uris_option(*cmd, common->allow_outside_uris);
  cmd->callback([files, strict, show_info, quiet, common, cmdl, &exit_code] {
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
    for (const auto& path : *files) {
      auto doc = open_or_report(path, *common, exit_code);
      if (!doc) continue;
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

void add_convert_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("convert", "Convert or rewrite a file; the output format follows -o's extension");
  auto in = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto common = std::make_shared<CommonOptions>();
  auto target_layout = std::make_shared<std::string>();
  auto skeleton = std::make_shared<std::string>();
  auto meshes = std::make_shared<std::string>();
  auto template_file = std::make_shared<std::string>();
  auto hq = std::make_shared<bool>(false);
  auto textures = std::make_shared<std::string>();
  auto keep_going = std::make_shared<bool>(false);
  auto force = std::make_shared<bool>(false);
  auto recursive = std::make_shared<bool>(false);
  auto jobs = std::make_shared<unsigned>(0);
  auto float_rotations = std::make_shared<bool>(false);
  auto motions = std::make_shared<std::vector<std::string>>();
  cmd->add_option("input", *in, "Input file (a folder with --recursive)")->required();
  cmd->add_option("-o,--output", *out, "Output file (a folder with --recursive)")->required();
  cmd->add_option("--skeleton", *skeleton,
                  "X-Ray .omf <-> glTF: the .ogf whose skeleton plays the motions; MGS2 .cmdl to glTF: its .kms/.evm "
                  "(default: the one beside it)");
  cmd->add_option("--template", *template_file,
                  "glTF to .omf/.kms/.evm: the original file (parts, params, fields, placement; unedited bytes)");
  auto scale = std::make_shared<double>(0);
  cmd->add_option("--scale", *scale, "MGS2 <-> glTF: metres per model unit (default: the glTF's extras, else 0.001)")
      ->check(positive_scale());
  cmd->add_flag("--hq", *hq, "glTF to .omf: 16-bit translation keys for every keyed bone");
  cmd->add_option("--meshes", *meshes, "X-Ray: folder that motion refs are relative to (default: nearest 'meshes')");
  cmd->add_option("--textures", *textures,
                  "X-Ray .ogf, MGS2 .kms/.evm to glTF: textures root (.dds, .ctxr or .png; X-Ray default: the "
                  "'textures' folder beside the model's 'meshes' folder)");
  cmd->add_flag("--float-rotations", *float_rotations,
                "X-Ray to glTF: rotations as normalised floats instead of the stored 16-bit components");
  cmd->add_option("--motions", *motions,
                  "X-Ray to glTF: export only the motions whose name matches GLOB (* and ?, ignoring case; repeatable)")
      ->type_name("GLOB");
  cmd->add_flag("--keep-going", *keep_going, "X-Ray .ogf to glTF: leave out broken meshes (warned) instead of failing");
  cmd->add_flag("--force", *force, "Convert even when validate finds errors in the input (says so on stderr)");
  cmd->add_flag("-r,--recursive", *recursive, "X-Ray: convert every .ogf (with its motions) and unreferenced .omf "
                                              "under the input folder to .glb files in the output folder");
  cmd->add_option("-j,--jobs", *jobs, "With --recursive: worker threads (default: all cores)");
  cmd->add_option("--layout", *target_layout, "MGS2 only: write the PS2 or Master Collection layout")
      ->check(CLI::IsMember({"ps2", "mc"}));
  cmd->add_option("--input-layout", common->layout, "MGS2 only: force the input's layout")
      ->check(CLI::IsMember({"ps2", "mc"}));
  auto n_mats = std::make_shared<std::string>();
  cmd->add_option("--n-mats", *n_mats,
                  "MGS2 to .evm: what each packet's n_mats counts: spec (matrices used, the default for new "
                  "packets) or sealouse (influences per vertex, at most 4, as SeaLouse's importer reads it)")
      ->check(CLI::IsMember({"spec", "sealouse"}));
  auto cmdl = std::make_shared<std::string>();
  auto no_cmdl = std::make_shared<bool>(false);
  auto* cmdl_opt = cmd->add_option("--cmdl", *cmdl,
                                   "MGS2 Master Collection .kms/.evm output: where its .cmdl goes (default: _win/<name>.cmdl "
                                   "beside the output)");
  cmd->add_flag("--no-cmdl", *no_cmdl, "MGS2 Master Collection .kms/.evm output: write no .cmdl")->excludes(cmdl_opt);
  add_names_option(*cmd, *common);
  add_allow_outside_uris_option(*cmd, common->allow_outside_uris);
  cmd->callback([cmd, in, out, common, target_layout, skeleton, meshes, template_file, hq, recursive, jobs, textures,
                 keep_going, force, scale, n_mats, float_rotations, motions, cmdl, no_cmdl, &exit_code] {
    InterruptScope interruptible;  // SIGINT/SIGTERM: stop at a safe point, leave no temporary file
    const unsigned given = given_convert_options(*cmd);
    if (*recursive) {
      if (const unsigned ignored = given & ~kBatchOptions; ignored != 0) {
        std::fprintf(stderr, "%s does not apply with --recursive (options that do: %s, --jobs)\n",
                     std::string(convert_option_name(ignored & (~ignored + 1))).c_str(),
                     convert_option_list(kBatchOptions).c_str());
        exit_code = kExitUsage;
        return;
      }
      BatchOptions batch;
      batch.input_dir = path_from_utf8(*in);
      batch.output_dir = path_from_utf8(*out);
      batch.meshes_root = path_from_utf8(*meshes);
      batch.threads = *jobs;
      batch.textures = path_from_utf8(*textures);
      batch.keep_going = *keep_going;
      batch.force = *force;
      batch.float_rotations = *float_rotations;
      batch.motions = *motions;
      exit_code = std::max(exit_code, run_batch_convert(std::move(batch)));
      return;
    }
    if (cmd->count("--jobs") > 0) {
      std::fprintf(stderr, "--jobs applies only with --recursive\n");
      exit_code = kExitUsage;
      return;
    }
    if (same_file(path_from_utf8(*in), path_from_utf8(*out))) {
      std::fprintf(stderr, "%s: refusing to overwrite the input file; choose another output\n", out->c_str());
      exit_code = kExitUsage;
      return;
    }
    if (!option_file_ok("--skeleton", *skeleton, exit_code) || !option_file_ok("--template", *template_file, exit_code))
      return;
    auto doc = open_or_report(*in, *common, exit_code);
    if (!doc) return;
    const std::string ext = lower_extension(*out);
    const auto targets = doc->convert_targets();
    if (std::find(targets.begin(), targets.end(), ext) == targets.end()) {
      std::string list;
      for (const auto& t : targets) list += (list.empty() ? "" : ", ") + t;
      std::fprintf(stderr, "%s: cannot convert %s to '%s' (possible: %s)\n", in->c_str(),
                   std::string(doc->format()).c_str(), ext.c_str(), list.c_str());
      exit_code = kExitUsage;
      return;
    }
    ConvertOptions options;
    Diagnostics warnings;
    options.input = path_from_utf8(*in);
    options.output = path_from_utf8(*out);
    options.xray = {path_from_utf8(*skeleton), path_from_utf8(*meshes), path_from_utf8(*textures), *keep_going,
                    path_from_utf8(*template_file), *hq, *float_rotations, *motions};
    options.mgs2 = {*target_layout, *scale, path_from_utf8(*template_file), path_from_utf8(*textures), *n_mats,
                    path_from_utf8(*cmdl), *no_cmdl, path_from_utf8(*skeleton)};
    options.warnings = &warnings;
    if (auto fits = doc->check_convert_options(ext, given, options); !fits) {
      std::fprintf(stderr, "%s\n", describe_failure(fits.error(), *in).c_str());
      exit_code = kExitUsage;
      return;
    }
    if (refuse_invalid_input(*doc, ext, options, *in, *force, exit_code)) return;
    const auto converted = convert_to_files(*doc, ext, options);
    for (const auto& f : warnings.findings())
      if (f.severity != Severity::info) std::fprintf(stderr, "%s\n", format_finding(f, *in).c_str());
    if (!converted) {
      std::fprintf(stderr, "%s\n", describe_failure(converted.error(), *in).c_str());
      exit_code = std::max({exit_code, exit_code_for(converted.error()), InterruptScope::exit_code()});
    }
  });
}

}  // namespace boneyard::cli
