// `boneyard texture`'s files: the input read, the outputs the texture layer makes written through
// temporary files, and folders of textures converted in parallel.
#include "boneyard/registry/texture_files.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

#include "boneyard/core/file_io.h"
#include "boneyard/core/interrupt.h"
#include "boneyard/core/limits.h"
#include "boneyard/core/text.h"

namespace boneyard {

namespace fs = std::filesystem;

namespace {

// Writes every output through a temporary file; renames them only when all were written, and
// takes back those already renamed when a later rename fails.
Status write_all(std::vector<texture::TextureOutput>& outputs, const texture::TextureConvertOptions& o,
                 std::vector<fs::path>* written) {
  std::vector<std::unique_ptr<AtomicFile>> files;
  for (auto& x : outputs) {
    auto f = AtomicFile::create(x.path);
    if (!f) return f.error();
    if (auto s = texture::write_texture_output(x, *f.value(), o); !s) return s;
    files.push_back(std::move(f).value());
  }
  std::vector<fs::path> done;
  for (auto& f : files) {
    if (auto s = f->commit(); !s) {
      for (const auto& p : done) {
        std::error_code ec;
        fs::remove(p, ec);
      }
      return s;
    }
    done.push_back(f->path());
  }
  if (written) written->insert(written->end(), done.begin(), done.end());
  return {};
}

}  // namespace

Status convert_texture(const fs::path& input, const fs::path& output, const texture::TextureConvertOptions& o,
                       std::vector<fs::path>* written, Diagnostics* notes) {
  if (auto fits = texture::check_texture_output(output, o); !fits) return fits;
  auto file = FileData::open(input);
  if (!file) return file.error();
  auto outputs = texture::texture_outputs(std::move(file).value(), lower_extension(input.string()), output, o, notes);
  if (!outputs) return outputs.error();
  return write_all(outputs.value(), o, written);
}

std::vector<TextureBatchItem> convert_textures(const std::vector<fs::path>& inputs, const fs::path& output_dir,
                                               std::string_view extension, const texture::TextureConvertOptions& o,
                                               unsigned threads, const std::function<void(const TextureBatchItem&)>& progress) {
  std::vector<TextureBatchItem> items;
  const bool to_png = extension == ".png";
  for (const auto& in : inputs) {
    std::error_code ec;
    if (!fs::is_directory(in, ec)) {
      fs::path out = output_dir / in.filename();
      out.replace_extension(extension);
      items.push_back({in, out, {}, {}});
      continue;
    }
    std::vector<fs::path> found;
    for (fs::recursive_directory_iterator it(in, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
      if (!it->is_regular_file(ec)) continue;
      const std::string e = lower_extension(it->path().string());
      if (to_png ? (e == ".dds" || e == ".ctxr") : e == ".png") found.push_back(it->path());
    }
    std::sort(found.begin(), found.end());
    for (const auto& p : found) {
      fs::path out = output_dir / p.lexically_relative(in);
      out.replace_extension(extension);
      items.push_back({p, out, {}, {}});
    }
  }
  std::atomic<std::size_t> next{0};
  std::mutex report;
  texture::DecodeBudget budget;
  auto worker = [&] {
    for (std::size_t i; !interrupted() && (i = next.fetch_add(1)) < items.size();) {
      TextureBatchItem& item = items[i];
      std::error_code ec;
      fs::create_directories(item.output.parent_path(), ec);
      try {
        // What this file decodes, from its header (a cross holds twelve faces' worth: the whole
        // budget); the file is opened again to convert it.
        std::uint64_t cost = 0;
        if (auto file = FileData::open(item.input))
          cost = o.cross ? kMaxTextureBytes
                         : texture::texture_decoded_bytes(file.value()->bytes(), lower_extension(item.input.string()));
        const auto hold = budget.acquire(cost);
        item.status = convert_texture(item.input, item.output, o, nullptr, &item.notes);
      } catch (const std::exception& e) {  // bad_alloc on a hostile file: this item fails alone
        item.status = Finding{Severity::error, 0, {}, std::string("internal error: ") + e.what(), {}, {}};
      }
      std::lock_guard lock(report);
      if (progress) progress(item);
    }
  };
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(items.size(), 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  return items;
}

}  // namespace boneyard
