// Validators for MGS2 models: structural checks the game relies on (alignment, overlaps, limits,
// hierarchy, skinning palette, strips) and sanity warnings (bounding boxes).
#pragma once

#include "boneyard/cmdl.h"
#include "boneyard/diagnostics.h"
#include "boneyard/evm.h"
#include "boneyard/kms.h"

namespace boneyard::mgs2 {

void validate_kms(const KmsModel& model, Diagnostics& out);
void validate_evm(const EvmModel& model, Diagnostics& out);
// A .cmdl on its own: the section table, sizes against the vertex count, values, the tail's
// indices and records (docs/mgs2-cmdl.md "Validation"). With its model: check_cmdl_pair (cmdl.h).
void validate_cmdl(const CmdlModel& model, Diagnostics& out);

}  // namespace boneyard::mgs2
