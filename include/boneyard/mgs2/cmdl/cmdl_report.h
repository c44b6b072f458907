// What `info` and `dump` show of a .cmdl, and how sure the bytes look like one. The JSON follows
// docs/json-schema.md (a .cmdl holds no texture names).
#pragma once

#include <string>
#include <string_view>

#include "boneyard/core/bytes.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/mgs2/cmdl/cmdl.h"

namespace boneyard::mgs2 {

std::string describe_cmdl(const CmdlFile& model);
void dump_cmdl(JsonWriter& out, const CmdlFile& model, bool raw);

// 0: not this format; higher: surer (90 with its own extension and a known header). `extension`
// is lower case with its dot.
int sniff_cmdl(Bytes bytes, std::string_view extension);

}  // namespace boneyard::mgs2
