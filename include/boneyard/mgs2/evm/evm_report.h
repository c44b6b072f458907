// What `info` and `dump` show of a .evm, and how sure the bytes look like one. The JSON follows
// docs/json-schema.md; `names` (optional) turns texture ids into names.
#pragma once

#include <string>
#include <string_view>

#include "boneyard/core/bytes.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/mgs2/evm/evm.h"
#include "boneyard/mgs2/strcode.h"

namespace boneyard::mgs2 {

std::string describe_evm(const EvmFile& model, const TextureNames* names);
void dump_evm(JsonWriter& out, const EvmFile& model, bool raw, const TextureNames* names);

// 0: not this format; higher: surer (90 with its own extension and a known header). `extension`
// is lower case with its dot.
int sniff_evm(Bytes bytes, std::string_view extension);

}  // namespace boneyard::mgs2
