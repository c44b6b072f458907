// Internal to the .object folder: the mesh reader, and helpers its readers, writers and the scene
// adapter share.
#pragma once

#include <string>
#include <vector>

#include "boneyard/xray/object/object.h"

namespace boneyard::xray::object_detail {

// Parses m.chunks (set by the caller) into the mesh's fields; throws ParseError (paths relative
// to the mesh, which the caller prefixes). Tolerated oddities go to `notes`.
void read_mesh(ObjectMesh& m, std::vector<Finding>& notes);

}  // namespace boneyard::xray::object_detail
