// Shared body of the KMS and EVM fuzzers. Properties checked beyond "no crash": a file that reads
// (in any layout) rewrites byte-exact, what the builder writes in either layout reads back, and the
// document's dump and info never fail.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "boneyard/mgs2_validate.h"
#include "mgs2/mgs2_documents.h"

namespace boneyard::mgs2::fuzz {

template <class Read, class Validate, class Write, class Build, class Open>
int run(const std::uint8_t* data, std::size_t size, Read read, Validate validate, Write write, Build build,
        Open open_document) {
  const Bytes bytes(data, size);
  for (auto force : {std::optional<Layout>{}, std::optional<Layout>{Layout::ps2}, std::optional<Layout>{Layout::mc}}) {
    auto m = read(bytes, force);
    if (!m) continue;
    Diagnostics d;
    validate(m.value(), d);
    const auto out = write(m.value());
    if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
    for (Layout target : {Layout::ps2, Layout::mc}) {
      auto built = build(m.value(), target);
      if (built && !read(Bytes(built.value().data(), built.value().size()), target)) std::abort();
    }
  }
  auto doc = open_document(FileData::from_vector({data, data + size}), OpenOptions{});
  if (doc) {
    JsonWriter w;
    DumpOptions o;
    doc.value()->dump(w, o);
    o.raw = true;
    doc.value()->dump(w, o);
    (void)doc.value()->info();
  }
  return 0;
}

}  // namespace boneyard::mgs2::fuzz
