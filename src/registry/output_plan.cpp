// The output plan (registry/output_plan.h): one place that knows what a command reads and writes.
#include "boneyard/registry/output_plan.h"

#include "boneyard/core/file_io.h"
#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"

namespace boneyard {

namespace fs = std::filesystem;

std::string output_key(const fs::path& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  if (ec) p = path;
  const fs::path resolved = fs::weakly_canonical(p, ec);
  return lower_ascii(generic_path_to_utf8(ec ? p.lexically_normal() : resolved));
}

bool same_target(const fs::path& a, const fs::path& b) { return same_file(a, b) || output_key(a) == output_key(b); }

Status check_output_target(const fs::path& path) {
  std::error_code ec;
  const auto st = fs::status(path, ec);  // a link is judged by what it points to
  if (ec || !fs::exists(st) || fs::is_regular_file(st)) return {};
  const char* kind = fs::is_directory(st)           ? "a folder"
                     : fs::is_fifo(st)              ? "a FIFO"
                     : fs::is_character_file(st)    ? "a device"
                     : fs::is_block_file(st)        ? "a device"
                     : fs::is_socket(st)            ? "a socket"
                                                    : "not a regular file";
  return usage_error_finding(path_to_utf8(path) + ": refusing to write over " + kind + " (an output replaces only regular files)");
}

void OutputPlan::Index::add(const std::string& key, const std::optional<FileIdentity>& id, std::size_t i) {
  by_key.emplace(key, i);
  if (id) by_identity.emplace(*id, i);
}

std::optional<std::size_t> OutputPlan::Index::find(const std::string& key, const std::optional<FileIdentity>& id) const {
  std::optional<std::size_t> found;
  if (auto k = by_key.find(key); k != by_key.end()) found = k->second;
  if (id)
    if (auto f = by_identity.find(*id); f != by_identity.end() && (!found || f->second < *found)) found = f->second;
  return found;
}

void OutputPlan::add_read(const fs::path& path, std::string role) {
  if (path.empty()) return;
  read_index_.add(output_key(path), file_identity(path), reads_.size());
  reads_.push_back({path, std::move(role)});
}

Status OutputPlan::against_reads(const fs::path& output, const std::string& key, const std::optional<FileIdentity>& id) const {
  const auto i = read_index_.find(key, id);
  if (!i) return {};
  const Read& r = reads_[*i];
  const bool input = r.role == "the input file";
  return usage_error_finding(path_to_utf8(output) + ": refusing to overwrite " + r.role +
                             (input && r.path == output ? "" : " " + path_to_utf8(r.path)) + "; choose another output");
}

Status OutputPlan::add_write(const fs::path& path) {
  if (auto target = check_output_target(path); !target) return target;
  const std::string key = output_key(path);
  const auto id = file_identity(path);
  if (auto s = against_reads(path, key, id); !s) return s;
  if (auto i = write_index_.find(key, id))
    return usage_error_finding(path_to_utf8(path) + ": this command would write it twice (also as " + path_to_utf8(writes_[*i]) +
                               "); choose distinct outputs");
  write_index_.add(key, id, writes_.size());
  writes_.push_back(path);
  write_keys_.push_back(key);
  return {};
}

Status OutputPlan::check() const {
  for (std::size_t i = 0; i < writes_.size(); ++i)
    if (auto s = against_reads(writes_[i], write_keys_[i], file_identity(writes_[i])); !s) return s;
  return {};
}

}  // namespace boneyard
