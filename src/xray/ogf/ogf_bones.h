// Bone data a new model needs (template-less import): Euler angles of a bind rotation (the
// inverse of bind_quaternion) and the bone boxes (0xD Fobb) fitted to the vertices.
#pragma once

#include <vector>

#include "boneyard/scene/scene.h"
#include "ogf_build.h"

namespace boneyard::xray::ogf_import {

// The rotation part of an affine matrix (columns normalised) as a glTF quaternion.
Quat rotation_of(const scene::Mat4& m);
// Euler angles r with setXYZi(r) = the stored matrix R(q) of the stored quaternion `q` (X-Ray
// space): Fmatrix::getXYZi, the inverse of bind_quaternion.
Vec3 xyz_rotation(const Quat& stored);

// Each bone's box (Fobb, bone space) around the vertices whose heaviest influence it is, as the
// SDK gathers them (ExportGeometry); the smaller of a principal-axes box and the bone-aligned box.
// Bones with fewer than 3 points get the SDK's invalidate(): identity rotation, zero size.
void fit_boxes(std::vector<ogf_build::BoneRecord>& bones, const std::vector<ogf_build::ChildGeometry>& children);

}  // namespace boneyard::xray::ogf_import
