// What `info` and `dump` show of a Master Collection index file (docs/json-schema-mgs2.md).
#pragma once

#include <string>

#include "boneyard/core/json_writer.h"
#include "boneyard/mgs2/mc_index/mc_index.h"

namespace boneyard::mgs2 {

std::string describe_mc_index(const McIndexFile& file);
void dump_mc_index(JsonWriter& out, const McIndexFile& file, bool raw);

}  // namespace boneyard::mgs2
