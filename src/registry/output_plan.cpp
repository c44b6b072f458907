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

void OutputPlan::add_read(const fs::path& path, std::string role) {
  if (path.empty()) return;
  reads_.push_back({path, output_key(path), std::move(role)});
}

Status OutputPlan::against_reads(const fs::path& output, const std::string& key) const {
  for (const auto& r : reads_)
    if (r.key == key || same_file(r.path, output)) {
      const bool input = r.role == "the input file";
      return usage_error_finding(path_to_utf8(output) + ": refusing to overwrite " + r.role +
                                 (input && r.path == output ? "" : " " + path_to_utf8(r.path)) + "; choose another output");
    }
  return {};
}

Status OutputPlan::add_write(const fs::path& path) {
  if (auto target = check_output_target(path); !target) return target;
  const std::string key = output_key(path);
  if (auto s = against_reads(path, key); !s) return s;
  for (std::size_t i = 0; i < writes_.size(); ++i)
    if (write_keys_[i] == key || same_file(writes_[i], path))
      return usage_error_finding(path_to_utf8(path) + ": this command would write it twice (also as " + path_to_utf8(writes_[i]) +
                                 "); choose distinct outputs");
  writes_.push_back(path);
  write_keys_.push_back(key);
  return {};
}

Status OutputPlan::check() const {
  for (std::size_t i = 0; i < writes_.size(); ++i)
    if (auto s = against_reads(writes_[i], write_keys_[i]); !s) return s;
  return {};
}

}  // namespace boneyard
