// The steps of one convert request (registry/convert_request.h) and the files its options name.
#include "boneyard/registry/convert_request.h"

#include <algorithm>
#include <variant>

#include "boneyard/core/text.h"
#include "boneyard/mgs2/strcode.h"
#include "formats.h"

namespace boneyard {

namespace fs = std::filesystem;

Status check_request_files(const ConvertOptions& request) {
  if (!request.input.empty() && same_file(request.input, request.output))
    return io_error_finding({}, request.output.string() + ": refusing to overwrite the input file; choose another output");
  for (const auto& row : convert_option_rows()) {
    const auto* field = std::get_if<fs::path ConvertSettings::*>(&row.field);
    if (!row.names_input || field == nullptr) continue;
    const fs::path& path = request.settings.*(*field);
    if (path.empty()) continue;
    if (auto regular = check_regular_file(path); !regular)
      return io_error_finding({}, option_flag(row) + " " + path.string() + ": " + regular.error().message);
  }
  return {};
}

Status convert_request(const Document& input, const ConvertOptions& request, ConvertOutcome& outcome) {
  const std::string ext = lower_extension(request.output.string());
  const auto targets = input.convert_targets();
  if (std::find(targets.begin(), targets.end(), ext) == targets.end()) {
    std::string list;
    for (const auto& t : targets) list += (list.empty() ? "" : ", ") + t;
    return usage_error_finding("cannot convert " + std::string(input.format()) + " to '" + ext + "' (possible: " + list +
                               ")");
  }
  if (auto files = check_request_files(request); !files) return files;
  registry::OptionFiles option_files;
  Diagnostics warnings;
  ConvertOptions options = request;
  options.option_files = &option_files;
  options.warnings = &warnings;
  if (auto read = check_options_read(input.format(), ext, request.given); !read) return read;
  if (auto fits = input.check_convert_options(ext, request.given, options); !fits) return fits;
  // A file that validate rejects is not converted, so a broken input never silently becomes a
  // broken or emptier output; --force converts it anyway (the caller says so).
  outcome.blockers = input.conversion_blockers(ext, options);
  if (!outcome.blockers.empty() && !request.settings.force) {
    outcome.blocked = true;
    return outcome.blockers.front();
  }
  const Status converted = convert_to_files(input, ext, options);
  for (auto& f : warnings.findings())
    if (f.severity != Severity::info) outcome.warnings.push_back(std::move(f));
  return converted;
}

OpenOptions open_options_for(const ConvertSettings& settings, const TextureNames* names) {
  OpenOptions o;
  o.layout = settings.input_layout;
  o.names = names;
  o.allow_outside_uris = settings.allow_outside_uris;
  return o;
}

Status load_texture_names(TextureNames& names, const fs::path& path) {
  // Through FileData, like every input: a FIFO or /dev/zero is refused instead of read forever.
  auto opened = FileData::open(path);
  if (!opened) return io_error_finding({}, path.string() + ": cannot read names file: " + opened.error().message);
  const Bytes bytes = opened.value()->bytes();
  names.load_text(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  return {};
}

namespace registry {

Result<std::shared_ptr<const FileData>> OptionFiles::open(const fs::path& path) {
  for (const auto& [p, file] : opened_)
    if (p == path) return file;
  opened_.emplace_back(path, FileData::open(path));
  return opened_.back().second;
}

Result<std::shared_ptr<const FileData>> open_option_file(const ConvertOptions& o, const fs::path& path) {
  if (o.option_files != nullptr) return o.option_files->open(path);
  return FileData::open(path);
}

}  // namespace registry

}  // namespace boneyard
