// `boneyard omf ...` (also `boneyard skls` and `boneyard anm`): list, merge, extract, delete, rename,
// set (params, flags, parts, marks), repair and retarget, on .omf, .skl, .skls and .anm files as
// their content says. Argument parsing only; the edits are in xray/omf/omf_edit.h,
// xray/skl/skl_edit.h and xray/anm/anm_edit.h, the flow of reading, checking and writing them
// (shared with Python's boneyard.Omf, Skls and Anm) in registry/motion_edits.h.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <variant>

#include "boneyard/registry/output_plan.h"
#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/registry/motion_edits.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/omf/omf_edit.h"
#include "commands.h"

namespace boneyard::cli {

namespace {

namespace fs = std::filesystem;
using xray::AnmFile;
using xray::EditReport;
using xray::OmfFile;
using xray::SklFile;

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

// An edit that a kind of motion file cannot take: a usage error saying why (exit 2, nothing written).
Finding not_for(std::string why) { return usage_error_finding(std::move(why)); }

// The container a path's extension asks for: .skl (one motion) or .skls.
xray::SklContainer container_for(const std::string& path) {
  return lower_extension(path) == ".skl" ? xray::SklContainer::skl : xray::SklContainer::skls;
}

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
std::optional<AnyMotionEdit> read_or_report(const std::string& path, int& exit_code) {
  auto data = open_file_or_report(path, exit_code);
  if (!data) return std::nullopt;
  auto f = read_motion_edit(data, path_from_utf8(path));
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
  if (f.usage) {
    std::fprintf(stderr, "%s\n", describe_failure(f, input).c_str());
    return kExitUsage;
  }
  std::fprintf(stderr, "%s\n", describe_edit_failure(f, input).c_str());
  return kExitFindings;
}

// Writes the edit to -o, or over the input keeping the original as FILE.bak (the registry's edit
// flow: nothing is written when the result would not validate, errors the input already had
// excepted). The changes are reported only once the file is written. Returns the exit code.
template <class Edit>
int write_result(const std::string& input, const Target& t, const Edit& edit, const EditReport& report) {
  if (t.output.empty() && !t.in_place) {
    std::fprintf(stderr, "%s: say where the result goes: -o FILE or --in-place\n", input.c_str());
    return kExitUsage;
  }
  const auto saved = save_edit(edit, t.in_place ? std::filesystem::path() : path_from_utf8(t.output));
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
  cmd->add_option("file", *file, ".omf, .skl, .skls or .anm file")->required();
  cmd->callback([file, &exit_code] {
    auto f = read_or_report(*file, exit_code);
    if (!f) return;
    auto line = [](std::size_t i, const std::string& name, const std::string& frames, const char* kind) {
      std::printf("%4zu  %s %6s frames  %s\n", i, pad_to_columns(cp1251_to_utf8(name), 32).c_str(), frames.c_str(), kind);
    };
    std::visit(Overloaded{
                   [&](const OmfEdit& e) {
                     const auto& set = e.file.motions;
                     for (std::size_t i = 0; i < set.params.motions.size(); ++i) {
                       const auto& mp = set.params.motions[i];
                       const auto frames = i < set.motions.size() && set.motions[i].readable
                                               ? std::to_string(set.motions[i].frames)
                                               : "?";
                       line(i, mp.name, frames, mp.is_fx() ? "fx" : "cycle");
                     }
                   },
                   [&](const SklEdit& e) {
                     // A motion's frames: frame_start to frame_end, both played.
                     for (std::size_t i = 0; i < e.file.motions.size(); ++i) {
                       const auto& m = e.file.motions[i];
                       line(i, m.name, std::to_string(std::int64_t{m.frame_end} - m.frame_start + 1), m.is_fx() ? "fx" : "cycle");
                     }
                   },
                   [&](const AnmEdit& e) {
                     const auto& m = e.file.motion;
                     line(0, m.name, std::to_string(std::int64_t{m.frame_end} - m.frame_start + 1), "object");
                   }},
               *f);
  });
}

// An option value that no file could make right (a NaN speed): a usage error, checked before the
// file is read. Returns the one-line reason, or nothing when the options are usable.
using UsageCheck = std::function<std::optional<std::string>()>;

// Commands of the form: read IN, apply an edit, write the result. `edit` is called with the file
// model of whatever IN is (OmfFile&, SklFile&, AnmFile&) and returns Result<EditReport>.
template <class Edit>
void add_edit(CLI::App& omf, const char* name, const char* help, int& exit_code,
              const std::function<void(CLI::App&)>& options, Edit edit, UsageCheck usage_check = {}) {
  auto* cmd = omf.add_subcommand(name, help);
  auto input = std::make_shared<std::string>();
  auto target = std::make_shared<Target>();
  cmd->add_option("input", *input, ".omf, .skl, .skls or .anm file to edit")->required();
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
    std::visit(
        [&](auto& e) {
          Result<EditReport> r = edit(e.file);
          if (!r) {
            exit_code = edit_failed(*input, r.error());
            return;
          }
          exit_code = std::max(exit_code, write_result(*input, *target, e, r.value()));
        },
        *f);
  });
}

void add_merge(CLI::App& omf, int& exit_code) {
  auto* cmd = omf.add_subcommand("merge", "Join two or more motion files (.omf with identical bone parts, or .skl/.skls)");
  auto inputs = std::make_shared<std::vector<std::string>>();
  auto output = std::make_shared<std::string>();
  auto rename = std::make_shared<bool>(false);
  cmd->add_option("inputs", *inputs, "Two or more .omf files, or .skl/.skls files, joined in this order")
      ->required()
      ->expected(2, -1);
  cmd->add_option("-o,--output", *output, "Merged file (.omf, or .skls; .skl for one motion)")->required();
  cmd->add_flag("--rename-clashes", *rename, "Rename a repeated motion name to name_2, name_3, ...");
  cmd->callback([inputs, output, rename, &exit_code] {
    std::vector<OmfEdit> omfs;
    std::vector<SklEdit> skls;
    for (const auto& in : *inputs) {
      if (same_target(path_from_utf8(in), path_from_utf8(*output))) {
        std::fprintf(stderr, "%s: refusing to overwrite an input\n", output->c_str());
        exit_code = kExitUsage;
        return;
      }
      auto f = read_or_report(in, exit_code);
      if (!f) return;
      if (auto* o = std::get_if<OmfEdit>(&*f)) omfs.push_back(std::move(*o));
      else if (auto* k = std::get_if<SklEdit>(&*f)) skls.push_back(std::move(*k));
      else {
        std::fprintf(stderr, "%s: an .anm holds one object motion: there is nothing to merge it with\n", in.c_str());
        exit_code = kExitUsage;
        return;
      }
    }
    if (!omfs.empty() && !skls.empty()) {
      std::fprintf(stderr, "%s: .omf and .skl/.skls files do not merge (their motions are stored differently)\n",
                   inputs->front().c_str());
      exit_code = kExitUsage;
      return;
    }
    EditReport report;
    const Target t{*output, false};
    if (!omfs.empty()) {
      auto merged = merge_omf_edits(std::move(omfs), *rename, report);
      if (!merged) {
        exit_code = edit_failed(inputs->front(), merged.error());
        return;
      }
      exit_code = std::max(exit_code, write_result(inputs->front(), t, merged.value(), report));
      return;
    }
    auto merged = merge_skl_edits(std::move(skls), *rename, container_for(*output), report);
    if (!merged) {
      exit_code = edit_failed(inputs->front(), merged.error());
      return;
    }
    exit_code = std::max(exit_code, write_result(inputs->front(), t, merged.value(), report));
  });
}

void add_extract(CLI::App& omf, int& exit_code) {
  auto* cmd = omf.add_subcommand("extract", "Write the chosen motions to a new file");
  auto input = std::make_shared<std::string>();
  auto output = std::make_shared<std::string>();
  auto names = std::make_shared<std::vector<std::string>>();
  cmd->add_option("input", *input, ".omf, .skl or .skls file")->required();
  cmd->add_option("names", *names, "Motion names or globs (* ?)")->required();
  cmd->add_option("-o,--output", *output, "New file (from a .skls: .skls, or .skl for one motion)")->required();
  cmd->callback([input, output, names, &exit_code] {
    auto f = read_or_report(*input, exit_code);
    if (!f) return;
    EditReport report;
    const Target t{*output, false};
    if (auto* o = std::get_if<OmfEdit>(&*f)) {
      auto out = xray::extract_motions(o->file, *names, report);
      if (!out) {
        exit_code = edit_failed(*input, out.error());
        return;
      }
      exit_code = std::max(exit_code, write_result(*input, t, derived_edit(*o, std::move(out).value()), report));
    } else if (auto* k = std::get_if<SklEdit>(&*f)) {
      auto out = xray::extract_skl_motions(k->file, *names, container_for(*output), report);
      if (!out) {
        exit_code = edit_failed(*input, out.error());
        return;
      }
      exit_code = std::max(exit_code, write_result(*input, t, derived_edit(*k, std::move(out).value()), report));
    } else {
      exit_code = edit_failed(*input, not_for("an .anm holds one object motion: copy the file instead"));
    }
  });
}

void add_delete(CLI::App& omf, int& exit_code) {
  auto names = std::make_shared<std::vector<std::string>>();
  add_edit(omf, "delete", "Remove motions by name or glob", exit_code,
           [names](CLI::App& c) { c.add_option("names", *names, "Motion names or globs (* ?)")->required(); },
           Overloaded{[names](OmfFile& f) { return xray::delete_motions(f, *names); },
                      [names](SklFile& f) { return xray::delete_skl_motions(f, *names); },
                      [](AnmFile&) -> Result<EditReport> {
                        return not_for("an .anm holds one object motion: there is nothing to delete from it");
                      }});
}

void add_rename(CLI::App& omf, int& exit_code) {
  auto rename_args = std::make_shared<std::vector<std::string>>();
  add_edit(omf, "rename", "Rename one motion", exit_code,
           [rename_args](CLI::App& c) { c.add_option("old_new", *rename_args, "OLD NEW")->required()->expected(2); },
           Overloaded{[rename_args](OmfFile& f) { return xray::rename_motion(f, (*rename_args)[0], (*rename_args)[1]); },
                      [rename_args](SklFile& f) { return xray::rename_skl_motion(f, (*rename_args)[0], (*rename_args)[1]); },
                      [rename_args](AnmFile& f) { return xray::rename_anm_motion(f, (*rename_args)[0], (*rename_args)[1]); }});
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
  c.add_option("--part", a.part, "Cycles: bone part name (.omf) or index (.skl/.skls), or all");
  c.add_option("--bone", a.bone, "FX: start bone name");
  c.add_option("--add-mark", a.marks, "NAME START END (seconds); repeatable")->expected(3);
  c.add_flag("--clear-marks", a.clear_marks, "Remove every mark (before --add-mark)");
}

Result<xray::ParamEdit> param_edit(const SetArgs& a) {
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
  return e;
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
      Overloaded{[set_args](OmfFile& f) -> Result<EditReport> {
                   auto e = param_edit(*set_args);
                   if (!e) return e.error();
                   return xray::set_params(f, set_args->names, e.value());
                 },
                 [set_args](SklFile& f) -> Result<EditReport> {
                   auto e = param_edit(*set_args);
                   if (!e) return e.error();
                   return xray::set_skl_params(f, set_args->names, e.value());
                 },
                 [](AnmFile&) -> Result<EditReport> {
                   return not_for("an .anm has no motion params or marks (it moves an object or a camera)");
                 }},
      [set_args] { return set_usage_problem(*set_args); });
}

void add_repair(CLI::App& omf, int& exit_code) {
  add_edit(omf, "repair", "Fix what can be fixed safely (0xE names, motion ids, CRCs, ...) and list each change",
           exit_code, [](CLI::App&) {},
           Overloaded{[](OmfFile& f) -> Result<EditReport> { return xray::repair_omf(f); },
                      [](auto&) -> Result<EditReport> { return not_for("repair is for .omf files"); }});
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
      Overloaded{[rt](OmfFile& f) {
                   const xray::Game g = rt->game == "soc"  ? xray::Game::soc
                                        : rt->game == "cs" ? xray::Game::cs
                                        : rt->game == "cop" ? xray::Game::cop
                                                            : xray::Game::keep;
                   return xray::retarget_omf(f, rt->version, g);
                 },
                 [](auto&) -> Result<EditReport> { return not_for("retarget is for .omf files"); }});
}

}  // namespace

void add_omf_command(CLI::App& app, int& exit_code) {
  auto* omf = app.add_subcommand(
      "omf", "Edit motion files: .omf, and the SDK's .skl, .skls and .anm (untouched motions keep their bytes)");
  omf->alias("skls");
  omf->alias("anm");
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
