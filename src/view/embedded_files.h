// Files compiled into the library (src/view/embed_files.cmake generates their definition): the
// page template, its script and style, and the three.js modules when they were found at configure
// time. Each file is stored as chunks that are joined on use.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace boneyard::view::detail {

struct EmbeddedFile {
  const char* name;  // e.g. "viewer.js", "three/build/three.core.js"
  const char* const* chunks;
  std::size_t chunk_count;
};

extern const EmbeddedFile kEmbeddedFiles[];
extern const std::size_t kEmbeddedFileCount;

}  // namespace boneyard::view::detail
