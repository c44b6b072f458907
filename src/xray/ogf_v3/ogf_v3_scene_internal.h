// The parts of the OGF v3 scene adapter (ogf_v3_scene.cpp: skeleton, meshes and the whole;
// ogf_v3_scene_motions.cpp: the embedded motions).
#pragma once

#include "boneyard/core/diagnostics.h"
#include "boneyard/scene/scene.h"
#include "boneyard/xray/ogf_v3/ogf_v3.h"
#include "boneyard/xray/xray_scene.h"

namespace boneyard::xray::ogf3 {

// The embedded motions (0x14/0x12 parameters with 0x1A/0xE keys) as animations of `scene`, whose
// joints are the model's bones in 0xD order; `v4` is skeleton_as_v4(file). 0x1A key sets go
// through the .omf adapter (add_motions); 0xE ones, whose translations are floats, are written
// here the same way (SHORT rotations, float translations, 30 fps).
Status add_embedded_motions(scene::Scene& scene, const OgfV3File& file, const OgfFile& v4,
                            const MotionExportOptions& options, Diagnostics& warnings);

// The 0x1A motions (with their 0x14/0x12 parameters) as an .omf motion set over the same bytes:
// one record per bone in 0xD order, so the parts name every bone with its 0xD index (lower-cased
// names, as the engine compares them; one part of every bone, warned, when the model's parts do
// not cover every bone once); motions in parameter order with the key set of their name (one
// without is left out, warned); flags != 0 become "translation keyed". The glTF export's and the
// .omf extraction's source.
MotionSet motion_set_of(const OgfV3File& file, Diagnostics& warnings);

}  // namespace boneyard::xray::ogf3
