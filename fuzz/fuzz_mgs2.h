// Shared body of the KMS and EVM fuzzers. Properties checked beyond "no crash": a file that reads
// (in any layout) rewrites byte-exact, what the builder writes in either layout reads back, and the
// model's dump (plain and raw) and info never fail. The raw dump (every value) runs on the inputs
// up to 8 KB and a sample of the larger ones (fuzz_sample.h).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "fuzz_sample.h"

namespace boneyard::mgs2::fuzz {

template <class Read, class Validate, class Write, class Build, class Describe, class Dump>
int run(const std::uint8_t* data, std::size_t size, Read read, Validate validate, Write write, Build build,
        Describe describe, Dump dump) {
  const Bytes bytes(data, size);
  const bool raw_dump = ::boneyard::fuzz::small_or_sampled(data, size);
  for (auto force : {std::optional<Layout>{}, std::optional<Layout>{Layout::ps2}, std::optional<Layout>{Layout::mc}}) {
    auto m = read(bytes, force);
    if (!m) continue;
    const Diagnostics d = validate(m.value());
    JsonWriter w;
    dump(w, m.value(), false, nullptr);
    if (raw_dump) dump(w, m.value(), true, nullptr);
    (void)describe(m.value(), nullptr);
    const auto out = write(m.value());
    if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
    for (Layout target : {Layout::ps2, Layout::mc}) {
      auto built = build(m.value(), target);
      if (built && !read(Bytes(built.value().data(), built.value().size()), target)) std::abort();
    }
  }
  return 0;
}

}  // namespace boneyard::mgs2::fuzz
