// glTF files: a .gltf's external buffers read from beside it, and a scene written as a .glb or
// .gltf. The glTF library reads and writes bytes; the registry opens and writes the files.
#pragma once

#include <filesystem>

#include "boneyard/core/diagnostics.h"
#include "boneyard/gltf/gltf_read.h"
#include "boneyard/scene/scene.h"

namespace boneyard {

// The external buffers of a .gltf in `folder` (gltf::read's `buffers`): only regular files, and
// unless `allow_outside_uris` only relative paths that stay inside the folder after
// percent-decoding, `..` and symlinks; schemes (http:, file:) never. A file that cannot be read
// is an error with `io` set (the CLI's --allow-outside-uris; docs/safety.md).
gltf::ExternalBuffers gltf_buffer_files(const std::filesystem::path& folder, bool allow_outside_uris);

// `scene` as the file `path` (.glb, or .gltf with its .bin beside it), streamed through temporary
// files: the .bin is renamed into place first, then the .gltf, so the .gltf never refers to a
// missing or partial buffer; on failure neither is left.
Status write_gltf_files(const scene::Scene& scene, const std::filesystem::path& path);

}  // namespace boneyard
