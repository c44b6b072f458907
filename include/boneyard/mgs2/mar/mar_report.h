// What `info` and `dump` show of a .mar, and how sure the bytes look like one. The JSON follows
// docs/json-schema-mgs2.md; `names` (optional) turns motion name strcodes into names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "boneyard/core/bytes.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/mgs2/mar/mar.h"
#include "boneyard/mgs2/strcode.h"

namespace boneyard::mgs2 {

std::string describe_mar(const MarFile& model, const TextureNames* names);
void dump_mar(JsonWriter& out, const MarFile& model, bool raw, const TextureNames* names);

// A motion's name as boneyard shows it (animation names, info, --motions): the names table's name
// for its strcode, else the strcode as 6 lower-case hex digits, as the Noesis plugins name it.
std::string mar_motion_name(std::uint32_t strcode, const TextureNames* names);

// 0: not this format; higher: surer (90 with its own extension). `extension` is lower case with
// its dot.
int sniff_mar(Bytes bytes, std::string_view extension);

}  // namespace boneyard::mgs2
