// Extras of the MGS2 export written as JSON text: a model has one object per packet (1,760 in a
// 51k-triangle EVM). The writing pieces are shared with the other adapters (scene/extras_text.h).
#pragma once

#include "mgs2_scene_common.h"
#include "scene/extras_text.h"

namespace boneyard::mgs2::detail {

using scene::append_b64;
using scene::append_bool;
using scene::append_uint;
using scene::append_uints;
using scene::ObjectText;

}  // namespace boneyard::mgs2::detail
