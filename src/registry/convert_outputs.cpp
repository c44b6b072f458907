// Where Documents write their conversions: memory (the view page, tests) or files, streamed
// through temporary files and renamed into place only once the whole conversion succeeded.
#include <cctype>
#include <deque>
#include <system_error>

#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/registry/document.h"
#include "formats.h"

namespace boneyard {

namespace fs = std::filesystem;

namespace {

class MemoryOutputs final : public ConvertOutputs {
 public:
  explicit MemoryOutputs(ConvertedFiles& files) : files_(files), main_(files.main) {}
  ByteSink& main() override { return main_; }
  Result<ByteSink*> side_file(const fs::path& path) override {
    files_.side_files.emplace_back(path, std::vector<std::uint8_t>{});
    return static_cast<ByteSink*>(&sinks_.emplace_back(files_.side_files.back().second));
  }

 private:
  ConvertedFiles& files_;
  VectorSink main_;
  std::deque<VectorSink> sinks_;  // a deque: the sinks handed out stay where they are
};

class FileOutputs final : public ConvertOutputs {
 public:
  explicit FileOutputs(std::unique_ptr<AtomicFile> main) : main_(std::move(main)) {}
  // Not committed: the temporary files go, then the folders made for side files (empty again).
  ~FileOutputs() override {
    if (committed_) return;
    side_.clear();
    main_.reset();
    for (auto it = made_.rbegin(); it != made_.rend(); ++it) {
      std::error_code ec;
      fs::remove(*it, ec);
    }
  }
  ByteSink& main() override { return *main_; }
  // A side file may go into a folder that does not exist yet (a Master Collection model's
  // `_win/`): it is made, and removed again when the conversion fails.
  Result<ByteSink*> side_file(const fs::path& path) override {
    if (auto made = make_folders(path.parent_path()); !made) return made.error();
    auto file = AtomicFile::create(path);
    if (!file) return file.error();
    side_.push_back(std::move(file).value());
    return static_cast<ByteSink*>(side_.back().get());
  }

  // Side files first, so that the output never names a missing one; a failure after some were
  // renamed removes them again: a .bin without its .gltf is half an output.
  Status commit() {
    std::vector<fs::path> renamed;
    Status status;
    for (auto& file : side_) {
      status = file->commit();
      if (!status) break;
      renamed.push_back(file->path());
    }
    if (status) status = main_->commit();
    if (status) {
      committed_ = true;
      return status;
    }
    Finding error = status.error();
    for (const auto& path : renamed) {
      std::error_code ec;
      if (fs::remove(path, ec)) error.message += "; removed " + path_to_utf8(path) + ", written before it";
    }
    return error;
  }

 private:
  Status make_folders(const fs::path& dir) {
    std::error_code ec;
    if (dir.empty() || fs::is_directory(dir, ec)) return {};
    std::vector<fs::path> missing;
    for (fs::path d = dir; !d.empty() && !fs::exists(d, ec); d = d.parent_path()) {
      missing.push_back(d);
      if (d == d.parent_path()) break;
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
      if (!fs::create_directory(*it, ec) && ec) return io_error_finding({}, "cannot create the folder " + path_to_utf8(*it) + ": " + ec.message());
      made_.push_back(*it);
    }
    return {};
  }

  std::unique_ptr<AtomicFile> main_;
  std::vector<std::unique_ptr<AtomicFile>> side_;
  std::vector<fs::path> made_;  // folders made for side files, outermost first
  bool committed_ = false;
};

}  // namespace

Result<ConvertedFiles> convert_in_memory(const Document& document, std::string_view target_extension,
                                         const ConvertOptions& options) {
  ConvertedFiles files;
  MemoryOutputs out(files);
  if (auto s = document.convert(target_extension, options, out); !s) return s.error();
  return files;
}

Status convert_to_files(const Document& document, std::string_view target_extension, const ConvertOptions& options) {
  auto main = AtomicFile::create(options.output);
  if (!main) return main.error();
  FileOutputs out(std::move(main).value());
  if (auto s = document.convert(target_extension, options, out); !s) return s;
  return out.commit();
}

namespace registry {

Status encode_gltf_to_files(Result<scene::Scene>& sc, Diagnostics& adapter_warnings, const ConvertOptions& options) {
  auto main = AtomicFile::create(options.output);
  if (!main) return main.error();
  FileOutputs out(std::move(main).value());
  const std::string ext = lower_extension(path_to_utf8(options.output.filename()));
  if (auto s = encode_gltf(sc, adapter_warnings, ext, options, out); !s) return s;
  return out.commit();
}

Status write_converted(const Result<std::vector<std::uint8_t>>& bytes, ConvertOutputs& out) {
  if (!bytes) return bytes.error();
  return out.main().write(bytes.value());
}

}  // namespace registry

}  // namespace boneyard
