// What `info` and `dump` show of an MGS2 model, and how sure the bytes look like one. The JSON
// follows docs/json-schema.md; `names` (optional) turns texture ids into names.
#pragma once

#include <string>
#include <string_view>

#include "boneyard/bytes.h"
#include "boneyard/cmdl.h"
#include "boneyard/evm.h"
#include "boneyard/json_writer.h"
#include "boneyard/kms.h"
#include "boneyard/strcode.h"

namespace boneyard::mgs2 {

std::string describe_kms(const KmsModel& model, const TextureNames* names);
void dump_kms(JsonWriter& out, const KmsModel& model, bool raw, const TextureNames* names);
std::string describe_evm(const EvmModel& model, const TextureNames* names);
void dump_evm(JsonWriter& out, const EvmModel& model, bool raw, const TextureNames* names);

// .cmdl: no texture names (it holds none).
std::string describe_cmdl(const CmdlModel& model);
void dump_cmdl(JsonWriter& out, const CmdlModel& model, bool raw);

// 0: not this format; higher: surer (90 with its own extension and a known header). `extension`
// is lower case with its dot.
int sniff_kms(Bytes bytes, std::string_view extension);
int sniff_evm(Bytes bytes, std::string_view extension);
int sniff_cmdl(Bytes bytes, std::string_view extension);

}  // namespace boneyard::mgs2
