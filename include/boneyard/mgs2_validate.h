// Validators for MGS2 models: structural checks the game relies on (alignment, overlaps, limits,
// hierarchy, skinning palette, strips) and sanity warnings (bounding boxes).
#pragma once

#include "boneyard/diagnostics.h"
#include "boneyard/evm.h"
#include "boneyard/kms.h"

namespace boneyard::mgs2 {

void validate_kms(const KmsModel& model, Diagnostics& out);
void validate_evm(const EvmModel& model, Diagnostics& out);

}  // namespace boneyard::mgs2
