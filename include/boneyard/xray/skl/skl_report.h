// Human and machine views of skeletal motions (.skl, .skls): `boneyard info` text and the
// `boneyard dump` JSON (schema: docs/json-schema.md ".skl, .skls, .anm").
#pragma once

#include <string>
#include <string_view>

#include "boneyard/core/bytes.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/xray/skl/skl.h"

namespace boneyard::xray {

// One motion as a JSON object ({"name": ..., "version": ..., "bones": [...], "marks": [...]}).
void dump_skl_motion(JsonWriter& out, const SklMotion& m, bool raw);
// Whole file: {"format":"skl"|"skls", ...}.
void dump_skl(JsonWriter& out, const SklFile& file, bool raw);

// One line per motion (name, version, frames, fps, kind, part or bone, params, flags, bones,
// keys by shape, marks).
std::string describe_skl_motions(const std::vector<SklMotion>& motions);
std::string describe_skl(const SklFile& file);

// 0: not this format; higher: surer (90 with its own extension). `extension` is lower case with
// its dot.
int sniff_skl(Bytes bytes, std::string_view extension);
int sniff_skls(Bytes bytes, std::string_view extension);

}  // namespace boneyard::xray
