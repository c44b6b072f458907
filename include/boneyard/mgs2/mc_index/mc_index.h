// The Master Collection's per-stage text indices: `manifest.txt` (which pool file each of a stage's
// PS2-era assets is: tri, kms, evm, mar, ...) and `bp_assets.txt` (its .ctxr textures, keyed by tri
// group and texture id, and its .cmdl files), in `<lang>/stage/<stage>/` of the game's folder, and
// the `manifest_<mod>.txt` / `bp_assets_<mod>.txt` that MGSHDFix loads beside them. Each line holds
// three comma-separated paths; the game's files end every line with "\r\r\n" (docs/mgs2-mc-index.md).
//
// The model keeps the file's bytes: lines (with their own endings, duplicates included) are read on
// demand, and an unedited file rewrites byte for byte.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"

namespace boneyard::mgs2 {

enum class McIndexKind : std::uint8_t { manifest, bp_assets };
std::string_view mc_index_kind_name(McIndexKind kind);  // "manifest" / "bp_assets"

// What the game's own index files end each line with.
inline constexpr std::string_view kMcIndexEnding = "\r\r\n";

struct McIndexLine {
  std::size_t number = 0;   // 1-based
  std::uint64_t offset = 0;
  std::string_view text;    // without its ending
  std::string_view ending;  // "\r\r\n", "\r\n", "\n", "" (the last line without one), any run of CRs + LF
};

// The three paths of a line: the pool file (assets/<ext>/<region>/<name>.<ext> or
// textures/flatlist/<file>.ctxr), the stage cache path, and the target path the game loads it as.
struct McIndexEntry {
  std::string pool, cache, target;
  std::string text() const { return pool + "," + cache + "," + target; }
  // Fields 2 and 3: what MGSHDFix matches a mod's line against a stage's (a mod line with the same
  // key replaces the stage's).
  std::string key() const { return cache + "," + target; }
};
// Splits a line into its three paths; nullopt when it does not hold exactly three non-empty ones.
std::optional<McIndexEntry> parse_mc_index_line(std::string_view text);

struct McIndexFile {
  std::shared_ptr<const FileData> source;
  McIndexKind kind = McIndexKind::manifest;
  Bytes text;  // the whole file
};

// Which index a file is: by its name (manifest*.txt, bp_assets*.txt; `file_name` may be empty),
// else by its lines (a .ctxr or .cmdl line makes it bp_assets).
McIndexKind mc_index_kind(Bytes text, std::string_view file_name);
// "assets/" or "textures/" at the start and a comma-separated first line: how sure the bytes look
// like an index (0: not one). `extension` is lower case with its dot.
int sniff_mc_index(Bytes bytes, std::string_view extension, std::string_view file_name);

// Reads a file as an index. Errors: a NUL byte (not text).
Result<McIndexFile> read_mc_index(std::shared_ptr<const FileData> file, std::string_view file_name);
// The file as it is: byte for byte.
std::vector<std::uint8_t> write_mc_index(const McIndexFile& file);
// A new index of `entries`, one per line, each ended by `ending`.
std::string mc_index_text(const std::vector<McIndexEntry>& entries, std::string_view ending = kMcIndexEnding);

// Every line in order, blank ones and the last one without an ending included (an empty file has
// none; a file ending in a line break has no empty line after it).
void for_each_mc_index_line(Bytes text, const std::function<void(const McIndexLine&)>& visit);

// Lines that are not three paths (errors), paths of the wrong shape for the kind, line endings other
// than the game's or mixed, blank lines, backslashes, and repeated lines or keys (info: kept).
Diagnostics validate_mc_index(const McIndexFile& file);

// ---- The entries an asset needs (docs/mgs2-mc-index.md "Registering a model") ----------------

// The sub-folder of a stage's cache: "resident" for r_* stages, else "cache".
std::string mc_stage_folder(std::string_view stage);
// "0089dc98": an id as the indices write it.
std::string mc_index_id(std::uint32_t id);

// manifest: assets/<kind>/<region>/<name>.<kind>,<region>/stage/<stage>/<sub>/<id>.<kind>,<sub>/<id>.<kind>
McIndexEntry manifest_entry(std::string_view kind, std::string_view region, std::string_view name, std::uint32_t id,
                            std::string_view stage);
// bp_assets, a texture: textures/flatlist/<file>,stage/<stage>/<sub>/<file>,<lang>/stage/<stage>/<sub>/<group>/<texture>.ctxr
McIndexEntry ctxr_entry(std::string_view file, std::uint32_t group, std::uint32_t texture, std::string_view stage,
                        std::string_view lang);
// bp_assets, a model's .cmdl: assets/<kind>/<region>/<name>.cmdl,<region>/stage/<stage>/<sub>/<id>.cmdl,<lang>/stage/<stage>/<sub>/<id>.cmdl
McIndexEntry cmdl_entry(std::string_view kind, std::string_view region, std::string_view name, std::uint32_t id,
                        std::string_view stage, std::string_view lang);

}  // namespace boneyard::mgs2
