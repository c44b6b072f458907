// Textures to and from PNG (`boneyard texture`; the registry reads and writes the files), and game
// textures as PNG for models.
#include "boneyard/core/text.h"
#include "boneyard/texture/dds_report.h"
#include "boneyard/texture/texture_convert.h"

#include <algorithm>
#include <cctype>

#include "boneyard/texture/ctxr.h"
#include "boneyard/texture/ctxr_report.h"

namespace boneyard::texture {

namespace fs = std::filesystem;

namespace {

// A parsed input file.
struct Source {
  TextureKind kind = TextureKind::png;
  std::shared_ptr<const FileData> file;
  std::optional<DdsFile> dds;
  std::optional<CtxrFile> ctxr;
  std::optional<PngFile> png;
  Diagnostics notes;  // the reader's findings: the cause when a level cannot be decoded
};

Result<Source> parse(std::shared_ptr<const FileData> file, std::string_view ext) {
  Source s;
  const auto kind = detect_texture(file->bytes(), ext);
  if (!kind)
    return Finding{Severity::error, 0, {}, "not a texture boneyard reads", "a .dds, .ctxr or .png file",
                   "unknown content (" + std::to_string(file->bytes().size()) + " bytes)"};
  s.kind = *kind;
  s.file = file;
  switch (*kind) {
    case TextureKind::dds: {
      auto d = read_dds(file, &s.notes);
      if (!d) return d.error();
      s.dds = std::move(d).value();
      break;
    }
    case TextureKind::ctxr: {
      auto c = read_ctxr(file, &s.notes);
      if (!c) return c.error();
      s.ctxr = std::move(c).value();
      break;
    }
    case TextureKind::png: {
      auto p = read_png(file->bytes());
      if (!p) return p.error();
      s.png = std::move(p).value();
      break;
    }
  }
  return s;
}

Result<Image> decode(const Source& s, unsigned face, unsigned mip) {
  switch (s.kind) {
    case TextureKind::dds: return decode_dds(*s.dds, face, mip);
    case TextureKind::ctxr: return decode_ctxr(*s.ctxr, mip);
    case TextureKind::png:
      if (mip != 0)
        return Finding{Severity::error, 0, {}, "a PNG has one level", "--mip 0", std::to_string(mip)};
      return s.png->image;
  }
  return Finding{};
}

// One image of the source (level `mip`, face `face`). When it cannot be decoded, the reader's
// first error says why (a truncated level, an unknown FourCC) better than "not stored".
Result<Image> image_of(const Source& s, unsigned face, unsigned mip) {
  auto im = decode(s, face, mip);
  if (im) return im;
  for (const auto& f : s.notes.findings())
    if (f.severity == Severity::error) return f;
  return im;
}

// Six faces in a horizontal cross, 4 faces wide and 3 high, as stored (no face is turned):
//        +Y
//   -X   +Z   +X   -Z
//        -Y
// Cells without a face stay transparent black.
Image cross_of(const std::vector<Image>& faces) {
  const std::uint32_t w = faces[0].width, h = faces[0].height;
  Image out;
  out.width = w * 4;
  out.height = h * 3;
  out.rgba.assign(std::size_t{out.width} * out.height * 4, 0);
  static constexpr int kCell[6][2] = {{2, 1}, {0, 1}, {1, 0}, {1, 2}, {1, 1}, {3, 1}};  // +X -X +Y -Y +Z -Z
  for (std::size_t f = 0; f < 6; ++f)
    for (std::uint32_t y = 0; y < h; ++y)
      std::copy_n(faces[f].rgba.data() + std::size_t{y} * w * 4, std::size_t{w} * 4,
                  out.rgba.data() + ((std::size_t{h} * kCell[f][1] + y) * out.width + std::size_t{w} * kCell[f][0]) * 4);
  return out;
}

Result<std::vector<TextureOutput>> png_outputs(const Source& s, const fs::path& out, const TextureConvertOptions& o) {
  std::vector<TextureOutput> outputs;
  const bool cube = s.kind == TextureKind::dds && s.dds->cube;
  if (!cube) {
    if (o.cross) return usage_error_finding("--cross applies only to cube maps");
    auto im = image_of(s, 0, o.mip);
    if (!im) return im.error();
    TextureOutput x{out, {}, std::move(im).value(), {}};
    if (s.kind == TextureKind::ctxr && o.mip == 0) x.chunks.push_back(ctxr_png_chunk(*s.ctxr));
    if (s.kind == TextureKind::png) x.chunks = s.png->chunks;
    outputs.push_back(std::move(x));
    return outputs;
  }
  std::vector<Image> faces;
  for (unsigned f = 0; f < s.dds->faces; ++f) {
    auto im = image_of(s, f, o.mip);
    if (!im) return im.error();
    faces.push_back(std::move(im).value());
  }
  if (o.cross) {
    if (faces.size() != 6)
      return Finding{Severity::error, 112, "caps2", "--cross needs all six faces", "6 faces", std::to_string(faces.size())};
    outputs.push_back({out, {}, cross_of(faces), {}});
    return outputs;
  }
  // Faces are named by the caps2 bits present, in file order.
  std::vector<unsigned> present;
  for (unsigned k = 0; k < 6; ++k)
    if (s.dds->header.dx10 || (s.dds->header.caps2 & (0x400u << k))) present.push_back(k);
  for (std::size_t i = 0; i < faces.size() && i < present.size(); ++i) {
    fs::path p = out;
    p.replace_filename(out.stem().string() + "_" + std::string(kCubeFaceNames[present[i]]) + out.extension().string());
    outputs.push_back({p, {}, std::move(faces[i]), {}});
  }
  return outputs;
}

Status check_written(const std::vector<std::uint8_t>& bytes, std::string_view ext) {
  auto file = FileData::from_vector(bytes);
  Diagnostics d;
  if (ext == ".dds") {
    auto r = read_dds(file, &d);
    if (!r) return r.error();
    d = validate_dds(r.value());
  } else {
    auto r = read_ctxr(file, &d);
    if (!r) return r.error();
    d = validate_ctxr(r.value());
  }
  for (const auto& f : d.findings())
    if (f.severity == Severity::error) {
      Finding e = f;
      e.message = "the written " + std::string(ext) + " would not validate: " + e.message;
      return e;
    }
  return {};
}

Result<std::vector<TextureOutput>> game_outputs(const Source& s, const fs::path& out, std::string_view ext,
                                         const TextureConvertOptions& o, Diagnostics* notes) {
  if (s.kind == TextureKind::dds && s.dds->cube)
    return usage_error_finding("a cube map converts only to PNG (six faces or --cross)");
  auto im = image_of(s, 0, o.mip);
  if (!im) return im.error();
  Result<std::vector<std::uint8_t>> bytes = std::vector<std::uint8_t>{};
  if (ext == ".dds") {
    bytes = build_dds(im.value(), DdsBuildOptions{o.format, o.mips});
  } else {
    const std::vector<PngChunk> none;
    bytes = build_ctxr(im.value(), s.kind == TextureKind::png ? s.png->chunks : none, CtxrBuildOptions{o.mips}, notes);
  }
  if (!bytes) return bytes.error();
  if (auto ok = check_written(bytes.value(), ext); !ok) return ok.error();
  std::vector<TextureOutput> outputs;
  outputs.push_back({out, std::move(bytes).value(), std::nullopt, {}});
  return outputs;
}

}  // namespace

std::optional<TextureKind> detect_texture(Bytes bytes, std::string_view extension) {
  if (sniff_dds(bytes, extension)) return TextureKind::dds;
  if (sniff_ctxr(bytes, extension)) return TextureKind::ctxr;
  if (is_png(bytes)) return TextureKind::png;
  return std::nullopt;
}

std::string_view texture_kind_name(TextureKind kind) {
  switch (kind) {
    case TextureKind::dds: return "dds";
    case TextureKind::ctxr: return "ctxr";
    case TextureKind::png: return "png";
  }
  return "?";
}

Status check_texture_output(const fs::path& output, const TextureConvertOptions& o) {
  const std::string ext = lower_extension(output.string());
  if (ext != ".png" && ext != ".dds" && ext != ".ctxr")
    return usage_error_finding("the output must end in .png, .dds or .ctxr (found '" + output.filename().string() + "')");
  if (o.format_given && ext != ".dds") return usage_error_finding("--format applies only to a .dds output");
  if (o.cross && ext != ".png") return usage_error_finding("--cross applies only to a .png output");
  if (!o.mips && ext == ".png") return usage_error_finding("--no-mips applies only to a .dds or .ctxr output");
  return {};
}

Result<std::vector<TextureOutput>> texture_outputs(std::shared_ptr<const FileData> input, std::string_view input_extension,
                                                   const fs::path& output, const TextureConvertOptions& o,
                                                   Diagnostics* notes) {
  if (auto fits = check_texture_output(output, o); !fits) return fits.error();
  auto source = parse(std::move(input), input_extension);
  if (!source) return source.error();
  const std::string ext = lower_extension(output.string());
  return ext == ".png" ? png_outputs(source.value(), output, o) : game_outputs(source.value(), output, ext, o, notes);
}

Status write_texture_output(TextureOutput& output, ByteSink& out, const TextureConvertOptions& o) {
  if (!output.image) return out.write(output.bytes);
  PngWriteOptions po;
  po.compression_level = o.png_level;
  po.chunks = std::move(output.chunks);
  const Status s = write_png(out, *output.image, std::move(po));
  output.image.reset();  // the next face need not share memory with this one
  return s;
}

Result<PngTexture> texture_as_png(Bytes bytes, std::string_view extension) {
  auto source = parse(FileData::from_view(bytes, nullptr), extension);
  if (!source) return source.error();
  const Source& s = source.value();
  PngTexture out;
  out.source = s.kind;
  if (s.kind == TextureKind::png) {
    out.png.assign(bytes.begin(), bytes.end());
    out.width = s.png->image.width;
    out.height = s.png->image.height;
    out.alpha = alpha_kind(s.png->image);
    return out;
  }
  if (s.kind == TextureKind::dds && s.dds->cube)
    return Finding{Severity::error, 112, "caps2", "a cube map is not a model texture (left out)", "a 2-D texture", "cube map"};
  auto im = image_of(s, 0, 0);
  if (!im) return im.error();
  out.width = im->width;
  out.height = im->height;
  out.alpha = alpha_kind(im.value());
  auto png = encode_png(im.value());
  if (!png) return png.error();
  out.png = std::move(png).value();
  return out;
}

}  // namespace boneyard::texture
