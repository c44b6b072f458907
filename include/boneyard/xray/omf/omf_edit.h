// Editing .omf files: every operation changes only what it is asked to change; motions the user
// does not touch keep their bytes (their key data stays a view into the original file).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/xray_game.h"

namespace boneyard::xray {

// What an edit did, in words for the user, plus warnings about what it could not keep.
struct EditReport {
  std::vector<std::string> changes;
  std::vector<std::string> warnings;
};

// Motions whose 0xF name matches any pattern (UTF-8; `*` and `?` wildcards; case-insensitive
// like the engine's lookup). A pattern that matches nothing is an error.
Result<std::vector<std::size_t>> select_motions(const OmfFile& file, const std::vector<std::string>& patterns);

// Rebuilds 0xE's sub-chunk list after motions were added, removed or reordered: the count, then
// motion i as sub-chunk i+1. Sub-chunks the engine never reads are dropped (reported).
void rebuild_motion_layout(OmfFile& file, EditReport& report);

Result<EditReport> delete_motions(OmfFile& file, const std::vector<std::string>& patterns);
Result<OmfFile> extract_motions(const OmfFile& file, const std::vector<std::string>& patterns, EditReport& report);
Result<EditReport> rename_motion(OmfFile& file, const std::string& old_name, const std::string& new_name);

struct MarkEdit {
  std::string name;
  float start = 0, end = 0;  // seconds
};

struct ParamEdit {
  std::optional<float> speed, power, accrue, falloff;
  std::optional<std::uint32_t> flags;
  std::optional<std::string> part;  // part name or "all" (cycles)
  std::optional<std::string> bone;  // bone name (FX start bone)
  std::vector<MarkEdit> add_marks;
  bool clear_marks = false;
};

// Speed, power, accrue and falloff must be finite and not negative (the engine divides and
// blends by them; NaN would spread through the whole animation).
bool valid_motion_param(float value);

// Parses "fx,stop_at_end,..." (or "none") into flag bits.
Result<std::uint32_t> parse_motion_flags(const std::string& words);

// Errors (nothing changed): a parameter that is not valid_motion_param, naming the option; a
// mark outside [0, length] of a selected motion, where length = (frames - 1) / 30 s.
Result<EditReport> set_params(OmfFile& file, const std::vector<std::string>& patterns, const ParamEdit& edit);

// Joins files whose bone parts match exactly. A motion name found twice is an error unless
// `rename_clashes`, which renames the later one to "name_2", "name_3", ...
Result<OmfFile> merge_omfs(std::vector<OmfFile> files, bool rename_clashes, EditReport& report);

// Fixes what can be fixed without guessing: 0xE names and motion ids from 0xF, CRCs, bit-31 ids,
// sub-chunks and bytes the engine never reads, unsorted mark intervals.
EditReport repair_omf(OmfFile& file);

// Rewrites for another game: SoC needs 8-bit translation keys (16-bit ones are requantised the
// SDK's way) and no bit 2; params version 3 drops marks (warned), 4 adds empty mark lists.
Result<EditReport> retarget_omf(OmfFile& file, std::optional<int> params_version, Game game);

}  // namespace boneyard::xray
