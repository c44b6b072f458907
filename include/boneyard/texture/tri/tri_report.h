// What `info` and `dump` show of a .tri, and how sure the bytes look like one (JSON:
// docs/textures.md "dump").
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "boneyard/core/bytes.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/texture/tri/tri.h"

namespace boneyard::texture {

// A texture's name from its id (the registry's --names list), or nullptr.
using TriNameLookup = std::function<const std::string*(std::uint32_t id)>;

std::string describe_tri(const TriFile& tri, const TriNameLookup& names = {});
void dump_tri(JsonWriter& out, const TriFile& tri, bool raw, const TriNameLookup& names = {});
// 90 with ".tri" for a header whose counts and blocks fit the file, 70 without the extension when
// the first entry also carries the layout tag; 10 with ".tri" otherwise (the reader explains).
int sniff_tri(Bytes bytes, std::string_view extension);

}  // namespace boneyard::texture
