// Parts of the OGF v3 reader shared between its files. They throw ParseError (read_ogf_v3 turns
// it into its Result); findings that do not stop the read go to file.read_findings.
#pragma once

#include <string>
#include <unordered_map>
#include <string_view>

#include "boneyard/xray/ogf_v3/ogf_v3.h"
#include "core/byte_reader.h"

namespace boneyard::xray::ogf3 {

// Nested visuals (0x11 children, 0x10 LODs) deeper than this are refused: real models nest one
// or two levels, and recursion must stay bounded on hostile files.
inline constexpr int kMaxVisualDepth = 8;

// Runs `fn` on the chunk; a ParseError gets `path` in front of its path, and when the chunk's id
// has bit 31 set (the engine's mark of an LZHuf-compressed chunk) the message says that boneyard
// reads such payloads as stored.
template <class Fn>
void parse_chunk(const Chunk& c, const std::string& path, Fn&& fn) {
  try {
    fn();
  } catch (ParseError& e) {
    e.prepend_path(path);
    if (c.compress_bit()) {
      Finding f = e.finding();
      f.message += " (the chunk id has bit 31 set, the mark of an LZHuf-compressed chunk: boneyard reads the payload "
                   "as stored, as the engine's find_chunk does, and does not decompress it)";
      throw ParseError(std::move(f));
    }
    throw;
  }
}

Vec3 read_vec3(ByteReader& r, std::string_view what);

// The visual's own chunks (header, boxes, texture, geometry, LOD data, child refs) and, below
// `depth`, its 0x11 children and 0x10 LODs; a child that cannot be read keeps its error.
void parse_visual(Ogf3Visual& v, int depth, std::vector<Finding>& findings);
// 0xD, the IK data the engine reads, 0x1D, 0x18 and 0x1B.
void parse_skeleton(OgfV3File& f);
// 0x14 or 0x12, and 0x1A or 0xE (records per motion = the bones of 0xD).
void parse_motions(OgfV3File& f);

// Lookups that keep validation and export linear in the number of bones and motions: the first
// bone of each lower-cased name (the engine compares names so), and the first key set of each
// stored name (the engine's find by name).
std::unordered_map<std::string, int> bones_by_lower_name(const OgfV3File& f);
std::unordered_map<std::string, std::size_t> key_sets_by_name(const Ogf3Motions& keys);

// The v4 description layout (0x1B is the same).
OgfDescription parse_description(const Chunk& c, std::vector<Finding>& findings, const std::string& path);

}  // namespace boneyard::xray::ogf3
