// Human and machine views of an .object: `boneyard info` text and the `boneyard dump` JSON
// (schema: docs/json-schema.md).
#pragma once

#include <string>
#include <string_view>

#include "boneyard/core/bytes.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/xray/object/object.h"

namespace boneyard::xray {

std::string describe_object(const ObjectFile& file);
// With `raw`: offsets, and every point, face, smoothing group, vmref and vertex map value.
void dump_object(JsonWriter& out, const ObjectFile& file, bool raw);

// 0: not this format; higher: surer (90 with its own extension).
int sniff_object(Bytes bytes, std::string_view extension);

}  // namespace boneyard::xray
