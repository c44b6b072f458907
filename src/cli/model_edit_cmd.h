// The shape every model edit command shares (`boneyard ogf ...`, `boneyard object ...`): one model
// (-o or --in-place) or every model under a folder (--recursive, in place or --dry-run), the result
// read back and validated before it is written. `Kind` names the model's edit flow (registry/
// ogf_edits.h, registry/object_edits.h).
#pragma once

#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/core/paths.h"
#include "commands.h"

namespace boneyard::cli::model_edit {

struct Target {
  std::string output;
  bool in_place = false;
  bool dry_run = false;
  bool recursive = false;
};

inline void add_target_options(CLI::App& cmd, Target& t, const char* ext) {
  auto* out = cmd.add_option("-o,--output", t.output, "Write the result here");
  auto* in_place = cmd.add_flag("--in-place", t.in_place, "Replace the input, keeping the original as FILE.bak");
  auto* dry = cmd.add_flag("--dry-run", t.dry_run, "Say what would change; write nothing");
  cmd.add_flag("-r,--recursive", t.recursive,
               std::string("The input is a folder: edit every ") + ext + " under it (with --in-place or --dry-run)");
  out->excludes(in_place);
  out->excludes(dry);
  in_place->excludes(dry);
}

inline int fail_usage(const std::string& input, const std::string& why) {
  std::fprintf(stderr, "%s: error: %s\n", input.c_str(), why.c_str());
  return kExitUsage;
}

// A refused edit: 2 when the request itself is a usage problem, else 1 (a name the format
// cannot hold is a finding about the result, as for `omf`).
inline int edit_failed(const std::string& input, const Finding& f) {
  std::fprintf(stderr, "%s\n", describe_edit_failure(f, input).c_str());
  return f.usage || f.io ? kExitUsage : kExitFindings;
}

template <class Kind>
std::optional<typename Kind::Edit> read_or_report(const std::string& path, int& exit_code) {
  auto data = open_file_or_report(path, exit_code);
  if (!data) return std::nullopt;
  auto f = Kind::read(data, path_from_utf8(path));
  if (!f) {
    std::fprintf(stderr, "%s\n", format_finding(f.error(), path).c_str());
    exit_code = std::max(exit_code, kExitFindings);
    return std::nullopt;
  }
  return std::move(f).value();
}

// One model: edited, checked, then written to -o or in place (nothing with --dry-run, but the
// result is still read back and validated). The changes are reported once they are written.
template <class Kind>
int edit_file(const std::string& input, const Target& t, const typename Kind::Fn& edit) {
  if (t.output.empty() && !t.in_place && !t.dry_run)
    return fail_usage(input, "say where the result goes: -o FILE, --in-place or --dry-run");
  int code = kExitOk;
  auto f = read_or_report<Kind>(input, code);
  if (!f) return code;
  auto report = edit(f->file);
  if (!report) return edit_failed(input, report.error());
  if (t.dry_run) {
    const auto bytes = Kind::bytes(*f);
    if (!bytes) return edit_failed(input, bytes.error());
    std::printf("%s: would change (dry run, nothing written)\n", input.c_str());
    print_edit_report(report.value());
    return kExitOk;
  }
  const auto saved = Kind::save(*f, t.in_place ? std::filesystem::path() : path_from_utf8(t.output));
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

// Every model under the folder: each model's outcome and changes, then the counts. Exit 1 when a
// model could not be edited (the others are done).
template <class Kind>
int edit_folder(const std::string& folder, const Target& t, const std::vector<std::string>& selectors,
                const typename Kind::Fn& edit) {
  if (!t.output.empty()) return fail_usage(folder, "--recursive edits in place: use --in-place or --dry-run, not -o");
  if (!t.in_place && !t.dry_run) return fail_usage(folder, "--recursive needs --in-place or --dry-run");
  auto items = Kind::folder(path_from_utf8(folder), selectors, edit, t.dry_run);
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
        std::printf("%s: no matching %s\n", name.c_str(), Kind::part);
        break;
      case FolderEditItem::Outcome::failed:
        ++failed;
        std::fprintf(stderr, "%s\n", describe_edit_failure(item.status.error(), name).c_str());
        break;
    }
  }
  std::printf("%zu %s, %zu unchanged, %zu without a matching %s, %zu failed\n", changed,
              t.dry_run ? "would change" : "changed", unchanged, unmatched, Kind::part, failed);
  return failed > 0 ? kExitFindings : kExitOk;
}

using UsageCheck = std::function<std::optional<std::string>()>;

// Commands of the form: read IN (or each model under it), apply an edit, write the result.
// `selectors` (may be null) are the children the edit picks: a folder's model where none matches
// is left alone.
template <class Kind>
void add_edit(CLI::App& parent, const char* name, const char* help, int& exit_code,
              const std::function<void(CLI::App&)>& options, typename Kind::Fn edit, UsageCheck usage_check = {},
              std::shared_ptr<std::vector<std::string>> selectors = nullptr) {
  auto* cmd = parent.add_subcommand(name, help);
  auto input = std::make_shared<std::string>();
  auto target = std::make_shared<Target>();
  cmd->add_option("input", *input, std::string(Kind::ext) + " file to edit (a folder with --recursive)")->required();
  options(*cmd);
  add_target_options(*cmd, *target, Kind::ext);
  cmd->callback([input, target, edit, usage_check, selectors, &exit_code] {
    if (usage_check)
      if (auto why = usage_check()) {
        exit_code = std::max(exit_code, fail_usage(*input, *why));
        return;
      }
    const int code = target->recursive
                         ? edit_folder<Kind>(*input, *target, selectors ? *selectors : std::vector<std::string>{}, edit)
                         : edit_file<Kind>(*input, *target, edit);
    exit_code = std::max(exit_code, code);
  });
}

}  // namespace boneyard::cli::model_edit
