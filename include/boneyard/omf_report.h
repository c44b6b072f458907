// Human and machine views of motions: `boneyard info` text and the `boneyard dump` JSON
// (schema: docs/json-schema.md).
#pragma once

#include <string>

#include "boneyard/json_writer.h"
#include "boneyard/omf.h"

namespace boneyard::xray {

// Writes the members "params_version", "parts" and "motions" into the open JSON object.
void dump_motion_set(JsonWriter& out, const MotionSet& set, bool raw);
// Whole .omf: {"format":"omf", ...}.
void dump_omf(JsonWriter& out, const OmfFile& file, bool raw);

// Parts, motion table and key statistics, one motion per line.
std::string describe_motion_set(const MotionSet& set);
std::string describe_omf(const OmfFile& file);

}  // namespace boneyard::xray
