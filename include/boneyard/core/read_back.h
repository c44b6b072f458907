// The check a writer makes on what it wrote, once the bytes are read back and validated.
#pragma once

#include <string_view>

#include "boneyard/core/diagnostics.h"

namespace boneyard {

// The first error of `found` that the input did not already have, its path prefixed with `what`
// ("written .omf"). One error of `inherited` excuses one found error of the same message (paths
// move when records are added or removed); null inherits nothing.
Status first_new_error(const Diagnostics& found, const Diagnostics* inherited, std::string_view what);

}  // namespace boneyard
