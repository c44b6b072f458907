// Where Documents write their conversions: memory (the view page, tests) or files, streamed
// through temporary files and renamed into place only once the whole conversion succeeded.
#include <cctype>
#include <deque>
#include <variant>
#include <system_error>

#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/gltf/gltf_write.h"
#include "boneyard/registry/document.h"
#include "boneyard/registry/gltf_files.h"
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

// The main output of a conversion that makes its own folders (ConvertOptions::make_folders, a
// batch writing into a tree): they and the file are made at the first write, so a conversion that
// fails before writing leaves no folder behind.
class FolderMakingFile final : public ByteSink {
 public:
  explicit FolderMakingFile(fs::path path) : path_(std::move(path)) {}
  Status write(Bytes data) override {
    if (auto made = make(); !made) return made;
    return file_->write(data);
  }
  Status commit() {
    if (auto made = make(); !made) return made;
    return file_->commit();
  }
  const fs::path& path() const { return path_; }

 private:
  Status make() {
    if (file_) return {};
    std::error_code ec;
    fs::create_directories(path_.parent_path(), ec);
    auto file = AtomicFile::create(path_);
    if (!file) return file.error();
    file_ = std::move(file).value();
    return {};
  }
  fs::path path_;
  std::unique_ptr<AtomicFile> file_;
};

// The main file of a conversion: created before it (an output that cannot be created is refused
// before any work), or with its folders at its first write.
using MainFile = std::variant<std::unique_ptr<AtomicFile>, std::unique_ptr<FolderMakingFile>>;

Result<MainFile> create_main(const fs::path& path, bool make_folders) {
  if (make_folders) return MainFile(std::make_unique<FolderMakingFile>(path));
  auto main = AtomicFile::create(path);
  if (!main) return main.error();
  return MainFile(std::move(main).value());
}

// Folders an output needs that are missing, made one by one so that a failed conversion can remove
// exactly those again (each is empty then: its files were temporary).
class FolderMaker {
 public:
  Status make(const fs::path& dir) {
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
  void remove_made() {
    for (auto it = made_.rbegin(); it != made_.rend(); ++it) {
      std::error_code ec;
      fs::remove(*it, ec);
    }
    made_.clear();
  }

 private:
  std::vector<fs::path> made_;  // outermost first
};

class FileOutputs final : public ConvertOutputs {
 public:
  // `plan` holds the main output already; without one the outputs are checked among themselves.
  FileOutputs(MainFile main, OutputPlan* plan) : main_(std::move(main)), plan_(plan != nullptr ? plan : &own_plan_) {}
  // Not committed: the temporary files go, then the folders made for side files (empty again).
  ~FileOutputs() override {
    if (committed_) return;
    side_.clear();
    main_ = MainFile();
    folders_.remove_made();
  }
  ByteSink& main() override {
    return std::visit([](auto& file) -> ByteSink& { return *file; }, main_);
  }
  // A side file may go into a folder that does not exist yet (a Master Collection model's
  // `_win/`): it is made, and removed again when the conversion fails.
  Result<ByteSink*> side_file(const fs::path& path) override {
    if (auto planned = plan_->add_write(path); !planned) return planned.error();
    if (auto made = folders_.make(path.parent_path()); !made) return made.error();
    auto file = AtomicFile::create(path);
    if (!file) return file.error();
    side_.push_back(std::move(file).value());
    return static_cast<ByteSink*>(side_.back().get());
  }

  // Side files first, so that the output never names a missing one; a failure after some were
  // renamed removes them again: a .bin without its .gltf is half an output.
  Status commit() {
    if (auto planned = plan_->check(); !planned) return planned;
    std::vector<fs::path> renamed;
    Status status;
    for (auto& file : side_) {
      status = file->commit();
      if (!status) break;
      renamed.push_back(file->path());
    }
    if (status) status = std::visit([](auto& file) { return file->commit(); }, main_);
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
  MainFile main_;
  OutputPlan own_plan_;
  OutputPlan* plan_;
  std::vector<std::unique_ptr<AtomicFile>> side_;
  FolderMaker folders_;  // folders made for side files
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
  OutputPlan own;
  OutputPlan& plan = options.plan != nullptr ? *options.plan : own;
  if (auto planned = plan.add_write(options.output); !planned) return planned;
  auto main = create_main(options.output, options.make_folders);
  if (!main) return main.error();
  FileOutputs out(std::move(main).value(), &plan);
  if (auto s = document.convert(target_extension, options, out); !s) return s;
  return out.commit();
}

namespace registry {

Status write_files_together(const std::vector<std::pair<fs::path, std::vector<std::uint8_t>>>& files, OutputPlan& plan) {
  for (const auto& [path, bytes] : files)
    if (auto planned = plan.add_write(path); !planned) return planned;
  FolderMaker folders;
  std::vector<std::unique_ptr<AtomicFile>> open;
  const auto undo = [&](Finding error, const std::vector<fs::path>& renamed) {
    open.clear();
    for (const auto& path : renamed) {
      std::error_code ec;
      if (fs::remove(path, ec)) error.message += "; removed " + path_to_utf8(path) + ", written before it";
    }
    folders.remove_made();
    return error;
  };
  for (const auto& [path, bytes] : files) {
    if (auto made = folders.make(path.parent_path()); !made) return undo(made.error(), {});
    auto file = AtomicFile::create(path);
    if (!file) return undo(file.error(), {});
    if (auto written = file.value()->write(Bytes(bytes.data(), bytes.size())); !written) return undo(written.error(), {});
    open.push_back(std::move(file).value());
  }
  if (auto planned = plan.check(); !planned) return undo(planned.error(), {});
  std::vector<fs::path> renamed;
  for (auto& file : open) {
    if (auto committed = file->commit(); !committed) return undo(committed.error(), renamed);
    renamed.push_back(file->path());
  }
  return {};
}

Status write_converted(const Result<std::vector<std::uint8_t>>& bytes, ConvertOutputs& out) {
  if (!bytes) return bytes.error();
  return out.main().write(bytes.value());
}

}  // namespace registry

Status write_gltf_files(const scene::Scene& scene, const fs::path& path) {
  const auto container = gltf::container_for(path);
  if (!container) return io_error_finding({}, path_to_utf8(path) + ": not a .glb or .gltf file name");
  fs::path bin = path;
  bin.replace_extension(".bin");
  const gltf::Encoding encoding(scene, *container, path_to_utf8(bin.filename()));
  OutputPlan plan;
  if (auto planned = plan.add_write(path); !planned) return planned;
  auto main = create_main(path, false);
  if (!main) return main.error();
  FileOutputs out(std::move(main).value(), &plan);
  if (*container == gltf::Container::gltf && encoding.bin_size() > 0) {
    auto sink = out.side_file(bin);
    if (!sink) return sink.error();
    if (auto s = encoding.write_bin(*sink.value()); !s) return s;
  }
  if (auto s = encoding.write(out.main()); !s) return s;
  return out.commit();
}

}  // namespace boneyard
