// What `info` and `dump` show of a .ctxr, and how sure the bytes look like one (JSON:
// docs/json-schema.md).
#pragma once

#include <string>
#include <string_view>

#include "boneyard/core/bytes.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/texture/ctxr/ctxr.h"

namespace boneyard::texture {

std::string describe_ctxr(const CtxrFile& ctxr);
void dump_ctxr(JsonWriter& out, const CtxrFile& ctxr, bool raw);
int sniff_ctxr(Bytes bytes, std::string_view extension);  // 90 with ".ctxr", 80 otherwise

}  // namespace boneyard::texture
