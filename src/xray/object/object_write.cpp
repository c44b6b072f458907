// Writing .object files: the lossless rewrite (the file's chunks as stored), a body wrapped as a
// file, and the read-back check every writer goes through.
#include <algorithm>

#include "boneyard/core/chunks.h"
#include "boneyard/core/lzhuf.h"
#include "boneyard/xray/object/object.h"

namespace boneyard::xray {

std::vector<std::uint8_t> write_object(const ObjectFile& file) {
  std::vector<std::uint8_t> out;
  out.reserve(file.size);
  ByteWriter w(out);
  for (const auto& c : file.file_chunks.chunks) write_chunk(w, c.raw_id, c.payload);
  w.bytes(file.file_chunks.trailing);
  return out;
}

Result<std::vector<std::uint8_t>> object_file_bytes(Bytes body, bool compress) {
  std::vector<std::uint8_t> out;
  out.reserve(body.size() + 8);
  ByteWriter w(out);
  if (compress)
    write_chunk(w, kObjectBody | kChunkCompressBit, lzhuf_encode(body));  // as the SDK packs it
  else
    write_chunk(w, kObjectBody, body);
  return out;
}

Result<std::vector<std::uint8_t>> checked_object_bytes(std::vector<std::uint8_t> bytes, const Diagnostics* inherited) {
  auto file = read_object(FileData::from_vector(bytes));
  if (!file) {
    Finding f = file.error();
    f.path = "written .object" + (f.path.empty() ? "" : " " + f.path);
    return f;
  }
  std::vector<std::string> allowed;
  if (inherited)
    for (const auto& f : inherited->findings())
      if (f.severity == Severity::error) allowed.push_back(f.message);
  const Diagnostics found = validate_object(file.value());
  for (const auto& f : found.findings()) {
    if (f.severity != Severity::error) continue;
    auto it = std::find(allowed.begin(), allowed.end(), f.message);
    if (it != allowed.end()) {
      allowed.erase(it);
      continue;
    }
    Finding e = f;
    e.path = "written .object" + (e.path.empty() ? "" : " " + e.path);
    return e;
  }
  return bytes;
}

Result<std::vector<std::uint8_t>> rewrite_object(const ObjectFile& file) {
  const Diagnostics own = validate_object(file);
  return checked_object_bytes(write_object(file), &own);
}

}  // namespace boneyard::xray
