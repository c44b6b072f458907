// `boneyard omf ...`: list, merge, extract, delete, rename, set (params, flags, parts, marks),
// repair and retarget. Argument parsing only; the edits are in xray/omf/omf_edit.h, the flow of
// reading, checking and writing them (shared with Python's boneyard.Omf) in registry/omf_edits.h.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <variant>

#include "boneyard/registry/output_plan.h"
#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/registry/omf_edits.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/omf/omf_edit.h"
#include "commands.h"

namespace boneyard::cli {

namespace {

namespace fs = std::filesystem;
using xray::EditReport;
using xray::OmfFile;

struct Target {
  std::string output;
  bool in_place = false;
};

void add_target_options(CLI::App& cmd, Target& t) {
  auto* out = cmd.add_option("-o,--output", t.output, "Write the result here");
  auto* in_place = cmd.add_flag("--in-place", t.in_place, "Replace the input, keeping the original as FILE.bak");
  out->excludes(in_place);
}

// The file to edit, with the findings it already had; on failure one line and the exit code.
std::optional<OmfEdit> read_or_report(const std::string& path, int& exit_code) {
  auto data = open_file_or_report(path, exit_code);
  if (!data) return std::nullopt;
  auto f = read_omf_edit(data, path_from_utf8(path));
  if (!f) {
    std::fprintf(stderr, "%s\n", format_finding(f.error(), path).c_str());
    exit_code = std::max(exit_code, kExitFindings);
    return std::nullopt;
  }
  return std::move(f).value();
}

std::string number_text(float v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", static_cast<double>(v));
  return b;
}

int edit_failed(const std::string& input, const Finding& f) {
  std::fprintf(stderr, "%s\n", describe_edit_failure(f, input).c_str());
  return kExitFindings;
}

// Writes the edit to -o, or over the input keeping the original as FILE.bak (the registry's edit
// flow: nothing is written when the result would not validate, errors the input already had
// excepted). The changes are reported only once the file is written. Returns the exit code.
int write_result(const std::string& input, const Target& t, const OmfEdit& edit, const EditReport& report) {
  if (t.output.empty() && !t.in_place) {
    std::fprintf(stderr, "%s: say where the result goes: -o FILE or --in-place\n", input.c_str());
    return kExitUsage;
  }
  const auto saved = save_omf_edit(edit, t.in_place ? std::filesystem::path() : path_from_utf8(t.output));
  if (!saved) {
    const Finding& f = saved.error();
    if (f.usage) {
      std::fprintf(stderr, "%s: %s; use --in-place to replace it (keeps a .bak)\n", t.output.c_str(), f.message.c_str());
      return kExitUsage;
    }
    if (!f.io) {
      std::fprintf(stderr, "%s\n", format_finding(f, input).c_str());
      return kExitFindings;
    }
    if (t.in_place) std::fprintf(stderr, "%s: error: %s\n", input.c_str(), f.message.c_str());
    else std::fprintf(stderr, "%s\n", f.message.c_str());
    return kExitUsage;
  }
  print_edit_report(report);
  if (t.in_place)
    std::printf("wrote %s (%zu bytes), original kept as %s\n", input.c_str(), saved.value().size,
                path_to_utf8(saved.value().backup).c_str());
  else
    std::printf("wrote %s (%zu bytes)\n", t.output.c_str(), saved.value().size);
  return kExitOk;
}

// `text` (UTF-8) padded with spaces to `columns` characters. printf's %-32s pads by bytes, which
// breaks the columns for Cyrillic names (two UTF-8 bytes per letter); every cp1251 character is
// one column, so counting code points is enough here.
std::string pad_to_columns(std::string text, std::size_t columns) {
  std::size_t chars = 0;
  for (unsigned char c : text) chars += (c & 0xC0) != 0x80;  // count lead bytes, not continuations
  if (chars < columns) text.append(columns - chars, ' ');
  return text;
}

void add_list(CLI::App& omf, int& exit_code) {
  auto* cmd = omf.add_subcommand("list", "List the motions: index, name, frames, cycle or FX");
  auto file = std::make_shared<std::string>();
  cmd->add_option("file", *file, ".omf file")->required();
  cmd->callback([file, &exit_code] {
    auto f = read_or_report(*file, exit_code);
    if (!f) return;
    const auto& set = f->file.motions;
    for (std::size_t i = 0; i < set.params.motions.size(); ++i) {
      const auto& mp = set.params.motions[i];
      const auto frames = i < set.motions.size() && set.motions[i].readable ? std::to_string(set.motions[i].frames) : "?";
      std::printf("%4zu  %s %6s frames  %s\n", i, pad_to_columns(cp1251_to_utf8(mp.name), 32).c_str(), frames.c_str(),
                  mp.is_fx() ? "fx" : "cycle");
    }
  });
}

// An option value that no file could make right (a NaN speed): a usage error, checked before the
// file is read. Returns the one-line reason, or nothing when the options are usable.
using UsageCheck = std::function<std::optional<std::string>()>;

// Commands of the form: read IN, apply an edit, write the result.
template <class Edit>
void add_edit(CLI::App& omf, const char* name, const char* help, int& exit_code,
              const std::function<void(CLI::App&)>& options, Edit edit, UsageCheck usage_check = {}) {
  auto* cmd = omf.add_subcommand(name, help);
  auto input = std::make_shared<std::string>();
  auto target = std::make_shared<Target>();
  cmd->add_option("input", *input, ".omf file to edit")->required();
  options(*cmd);
  add_target_options(*cmd, *target);
  cmd->callback([input, target, edit, usage_check, &exit_code] {
    if (usage_check) {
      if (auto why = usage_check()) {
        std::fprintf(stderr, "%s: error: %s\n", input->c_str(), why->c_str());
        exit_code = kExitUsage;
        return;
      }
    }
    auto f = read_or_report(*input, exit_code);
    if (!f) return;
    Result<EditReport> r = edit(f->file);
    if (!r) {
      exit_code = edit_failed(*input, r.error());
      return;
    }
    exit_code = std::max(exit_code, write_result(*input, *target, *f, r.value()));
  });
}

void add_merge(CLI::App& omf, int& exit_code) {
  auto* cmd = omf.add_subcommand("merge", "Join two or more motion files with identical bone parts");
  auto inputs = std::make_shared<std::vector<std::string>>();
  auto output = std::make_shared<std::string>();
  auto rename = std::make_shared<bool>(false);
  cmd->add_option("inputs", *inputs, "Two or more .omf files, joined in this order")->required()->expected(2, -1);
  cmd->add_option("-o,--output", *output, "Merged file")->required();
  cmd->add_flag("--rename-clashes", *rename, "Rename a repeated motion name to name_2, name_3, ...");
  cmd->callback([inputs, output, rename, &exit_code] {
    std::vector<OmfEdit> files;
    for (const auto& in : *inputs) {
      if (same_target(path_from_utf8(in), path_from_utf8(*output))) {
        std::fprintf(stderr, "%s: refusing to overwrite an input\n", output->c_str());
        exit_code = kExitUsage;
        return;
      }
      auto f = read_or_report(in, exit_code);
      if (!f) return;
      files.push_back(std::move(*f));
    }
    EditReport report;
    auto merged = merge_omf_edits(std::move(files), *rename, report);
    if (!merged) {
      exit_code = edit_failed(inputs->front(), merged.error());
      return;
    }
    Target t{*output, false};
    exit_code = std::max(exit_code, write_result(inputs->front(), t, merged.value(), report));
  });
}

void add_extract(CLI::App& omf, int& exit_code) {
  auto* cmd = omf.add_subcommand("extract", "Write the chosen motions to a new file");
  auto input = std::make_shared<std::string>();
  auto output = std::make_shared<std::string>();
  auto names = std::make_shared<std::vector<std::string>>();
  cmd->add_option("input", *input, ".omf file")->required();
  cmd->add_option("names", *names, "Motion names or globs (* ?)")->required();
  cmd->add_option("-o,--output", *output, "New file")->required();
  cmd->callback([input, output, names, &exit_code] {
    auto f = read_or_report(*input, exit_code);
    if (!f) return;
    EditReport report;
    auto out = xray::extract_motions(f->file, *names, report);
    if (!out) {
      exit_code = edit_failed(*input, out.error());
      return;
    }
    const OmfEdit extracted = derived_omf_edit(*f, std::move(out).value());
    exit_code = std::max(exit_code, write_result(*input, Target{*output, false}, extracted, report));
  });
}

void add_delete(CLI::App& omf, int& exit_code) {
  auto names = std::make_shared<std::vector<std::string>>();
  add_edit(omf, "delete", "Remove motions by name or glob", exit_code,
           [names](CLI::App& c) { c.add_option("names", *names, "Motion names or globs (* ?)")->required(); },
           [names](OmfFile& f) { return xray::delete_motions(f, *names); });
}

void add_rename(CLI::App& omf, int& exit_code) {
  auto rename_args = std::make_shared<std::vector<std::string>>();
  add_edit(omf, "rename", "Rename one motion", exit_code,
           [rename_args](CLI::App& c) { c.add_option("old_new", *rename_args, "OLD NEW")->required()->expected(2); },
           [rename_args](OmfFile& f) { return xray::rename_motion(f, (*rename_args)[0], (*rename_args)[1]); });
}

struct SetArgs {
  std::vector<std::string> names;
  std::optional<float> speed, power, accrue, falloff;
  std::optional<std::string> flags, part, bone;
  std::vector<std::string> marks;
  bool clear_marks = false;
};

void add_set_options(CLI::App& c, SetArgs& a) {
  c.add_option("names", a.names, "Motion names or globs (* ?)")->required();
  c.add_option("--speed", a.speed, "Playback speed");
  c.add_option("--power", a.power, "Blend power");
  c.add_option("--accrue", a.accrue, "Blend-in speed");
  c.add_option("--falloff", a.falloff, "Blend-out speed");
  c.add_option("--flags", a.flags,
               "Comma list: fx,stop_at_end,no_mix,sync_part,foot_steps,root_mover,idle,weapon_bone (or none)");
  c.add_option("--part", a.part, "Cycles: bone part name, or all");
  c.add_option("--bone", a.bone, "FX: start bone name");
  c.add_option("--add-mark", a.marks, "NAME START END (seconds); repeatable")->expected(3);
  c.add_flag("--clear-marks", a.clear_marks, "Remove every mark (before --add-mark)");
}

Result<EditReport> apply_set(OmfFile& f, const SetArgs& a) {
  xray::ParamEdit e;
  e.speed = a.speed;
  e.power = a.power;
  e.accrue = a.accrue;
  e.falloff = a.falloff;
  if (a.flags) {
    auto flags = xray::parse_motion_flags(*a.flags);
    if (!flags) return flags.error();
    e.flags = flags.value();
  }
  e.part = a.part;
  e.bone = a.bone;
  e.clear_marks = a.clear_marks;
  for (std::size_t i = 0; i + 2 < a.marks.size(); i += 3) {
    try {
      e.add_marks.push_back({a.marks[i], std::stof(a.marks[i + 1]), std::stof(a.marks[i + 2])});
    } catch (const std::exception&) {
      return Finding{Severity::error, 0, "--add-mark", "start and end must be numbers (seconds)", "NAME START END",
                     a.marks[i + 1] + " " + a.marks[i + 2]};
    }
  }
  return xray::set_params(f, a.names, e);
}

std::optional<std::string> set_usage_problem(const SetArgs& a) {
  const std::pair<const char*, const std::optional<float>*> values[] = {
      {"--speed", &a.speed}, {"--power", &a.power}, {"--accrue", &a.accrue}, {"--falloff", &a.falloff}};
  for (const auto& [option, value] : values)
    if (*value && !xray::valid_motion_param(**value))
      return std::string(option) + " must be a finite number >= 0 (found " + number_text(**value) + ")";
  return std::nullopt;
}

void add_set(CLI::App& omf, int& exit_code) {
  auto set_args = std::make_shared<SetArgs>();
  add_edit(
      omf, "set", "Change motion params, flags, part or bone, and marks", exit_code,
      [set_args](CLI::App& c) { add_set_options(c, *set_args); },
      [set_args](OmfFile& f) { return apply_set(f, *set_args); }, [set_args] { return set_usage_problem(*set_args); });
}

void add_repair(CLI::App& omf, int& exit_code) {
  add_edit(omf, "repair", "Fix what can be fixed safely (0xE names, motion ids, CRCs, ...) and list each change",
           exit_code, [](CLI::App&) {}, [](OmfFile& f) -> Result<EditReport> { return xray::repair_omf(f); });
}

struct RetargetArgs {
  std::optional<int> version;
  std::string game;
};

void add_retarget(CLI::App& omf, int& exit_code) {
  auto rt = std::make_shared<RetargetArgs>();
  add_edit(
      omf, "retarget", "Rewrite for another game (soc: 8-bit translations) or params version (3 drops marks)",
      exit_code,
      [rt](CLI::App& c) {
        c.add_option("--params-version", rt->version, "3 or 4")->check(CLI::IsMember({3, 4}));
        c.add_option("--game", rt->game, "soc, cs or cop")->check(CLI::IsMember({"soc", "cs", "cop"}));
      },
      [rt](OmfFile& f) {
        const xray::Game g = rt->game == "soc"  ? xray::Game::soc
                             : rt->game == "cs" ? xray::Game::cs
                             : rt->game == "cop" ? xray::Game::cop
                                                 : xray::Game::keep;
        return xray::retarget_omf(f, rt->version, g);
      });
}

}  // namespace

void add_omf_command(CLI::App& app, int& exit_code) {
  auto* omf = app.add_subcommand("omf", "Edit .omf motion files (untouched motions keep their bytes)");
  omf->require_subcommand(1);
  add_list(*omf, exit_code);
  add_merge(*omf, exit_code);
  add_extract(*omf, exit_code);
  add_delete(*omf, exit_code);
  add_rename(*omf, exit_code);
  add_set(*omf, exit_code);
  add_repair(*omf, exit_code);
  add_retarget(*omf, exit_code);
}

}  // namespace boneyard::cli
