// Human and machine views of motions (.omf, and the motions an .ogf embeds): `boneyard info` text and the `boneyard dump` JSON
// (schema: docs/json-schema.md).
#pragma once

#include <string>

#include <string_view>

#include "boneyard/core/json_writer.h"

#include "boneyard/core/bytes.h"
#include "boneyard/xray/omf/omf.h"

namespace boneyard::xray {

// Writes the members "params_version", "parts" and "motions" into the open JSON object.
void dump_motion_set(JsonWriter& out, const MotionSet& set, bool raw);
// Whole .omf: {"format":"omf", ...}.
void dump_omf(JsonWriter& out, const OmfFile& file, bool raw);

// Parts, motion table and key statistics, one motion per line.
std::string describe_motion_set(const MotionSet& set);
std::string describe_omf(const OmfFile& file);


// 0: not this format; higher: surer (90 with its own extension). `extension` is lower case with
// its dot.
int sniff_omf(Bytes bytes, std::string_view extension);

}  // namespace boneyard::xray
