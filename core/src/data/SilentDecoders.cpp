#include "data/SilentDecoders.hpp"

#include "data/LoaderSupport.hpp"

#include <png.h>

#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

// jpeglib.h needs FILE and size_t declared first.
#include <jerror.h>
#include <jpeglib.h>

namespace orbit::data {

namespace {

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// ---- PNG ----------------------------------------------------------------------------------------
// setjmp/longjmp cross only the two small functions below, whose locals are plain values: no C++
// object is skipped by a longjmp.

struct PngReader {
    png_structp png = nullptr;
    png_infop info = nullptr;
    char message[200] = {};
    ~PngReader() { png_destroy_read_struct(&png, info ? &info : nullptr, nullptr); }
};

void onPngError(png_structp png, png_const_charp text)
{
    auto* r = static_cast<PngReader*>(png_get_error_ptr(png));
    std::snprintf(r->message, sizeof r->message, "%s", text);
    png_longjmp(png, 1);
}

void onPngWarning(png_structp, png_const_charp) {}  // silent: warnings do not stop the decoding

bool pngHeader(PngReader& r, std::FILE* file, png_uint_32* width, png_uint_32* height, int* channels, int* depth)
{
    if (setjmp(png_jmpbuf(r.png)))
        return false;
    png_init_io(r.png, file);
    png_read_info(r.png, r.info);
    const int colour = png_get_color_type(r.png, r.info);
    const int bits = png_get_bit_depth(r.png, r.info);
    // The channels imread(IMREAD_UNCHANGED) gives: a palette as BGR, or BGRA with a transparency
    // chunk; grey + alpha as BGRA; grey and RGB without alpha whatever their tRNS says.
    if (colour == PNG_COLOR_TYPE_PALETTE) {
        png_set_palette_to_rgb(r.png);
        if (png_get_valid(r.png, r.info, PNG_INFO_tRNS))
            png_set_tRNS_to_alpha(r.png);
    }
    if (colour == PNG_COLOR_TYPE_GRAY && bits < 8)
        png_set_expand_gray_1_2_4_to_8(r.png);
    if (colour == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(r.png);
    if (bits == 16)
        png_set_swap(r.png);  // host (little-endian) order for CV_16U
    png_set_bgr(r.png);       // OpenCV's channel order
    png_set_interlace_handling(r.png);
    png_read_update_info(r.png, r.info);
    *width = png_get_image_width(r.png, r.info);
    *height = png_get_image_height(r.png, r.info);
    *channels = png_get_channels(r.png, r.info);
    *depth = png_get_bit_depth(r.png, r.info);
    return true;
}

bool pngRows(PngReader& r, png_bytep* rows)
{
    if (setjmp(png_jmpbuf(r.png)))
        return false;
    png_read_image(r.png, rows);
    png_read_end(r.png, nullptr);  // the chunks after the pixels, with their checksums
    return true;
}

LoadErrorKind pngErrorKind(const char* message)
{
    // libpng's own words for a file that ends early ("Read Error" from its stdio reader).
    return std::strstr(message, "Read Error") || std::strstr(message, "Not enough image data") ? LoadErrorKind::Truncated
                                                                                              : LoadErrorKind::UnreadableImage;
}

cv::Mat decodePng(const std::string& path, File file, std::size_t maxBytes)
{
    PngReader r;
    r.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &r, onPngError, onPngWarning);
    if (!r.png || !(r.info = png_create_info_struct(r.png)))
        fail(LoadErrorKind::UnreadableImage, path, {}, "libpng could not start");
    png_uint_32 width = 0, height = 0;
    int channels = 0, depth = 0;
    if (!pngHeader(r, file.get(), &width, &height, &channels, &depth))
        fail(LoadErrorKind::UnreadableImage, path, {}, "not a readable PNG (libpng: " + std::string(r.message) + ")");
    checkFloatMemory(path, {}, 1, checkedProduct({std::size_t(width), std::size_t(height), 3}), maxBytes);
    cv::Mat image(static_cast<int>(height), static_cast<int>(width), CV_MAKETYPE(depth == 16 ? CV_16U : CV_8U, channels));
    std::vector<png_bytep> rows(height);
    for (png_uint_32 y = 0; y < height; ++y)
        rows[y] = image.ptr(static_cast<int>(y));
    if (!pngRows(r, rows.data()))
        fail(pngErrorKind(r.message), path, {},
             pngErrorKind(r.message) == LoadErrorKind::Truncated ? "the PNG file is cut short (libpng: " + std::string(r.message) + ")"
                                                                 : "damaged PNG data (libpng: " + std::string(r.message) + ")");
    return image;
}

// ---- JPEG ---------------------------------------------------------------------------------------

struct JpegReader {
    jpeg_decompress_struct info{};
    jpeg_error_mgr errors{};
    std::jmp_buf jump{};
    char message[JMSG_LENGTH_MAX] = {};
    bool cutShort = false;  ///< libjpeg met the end of the file before the end of the image
    bool created = false;
    ~JpegReader()
    {
        if (created)
            jpeg_destroy_decompress(&info);
    }
};

void onJpegError(j_common_ptr c)
{
    auto* r = static_cast<JpegReader*>(c->client_data);
    (*c->err->format_message)(c, r->message);
    std::longjmp(r->jump, 1);
}

void onJpegMessage(j_common_ptr c, int level)
{
    auto* r = static_cast<JpegReader*>(c->client_data);
    if (level < 0 && c->err->msg_code == JWRN_JPEG_EOF && !r->cutShort) {
        r->cutShort = true;  // libjpeg pads the rest with grey: we refuse the image instead
        (*c->err->format_message)(c, r->message);
    }
    // Everything else (trace output, warnings on repairable data) stays silent.
}

bool jpegHeader(JpegReader& r, std::FILE* file, bool* cmyk)
{
    if (setjmp(r.jump))
        return false;
    jpeg_create_decompress(&r.info);
    r.created = true;
    jpeg_stdio_src(&r.info, file);
    jpeg_read_header(&r.info, TRUE);
    *cmyk = r.info.jpeg_color_space == JCS_CMYK || r.info.jpeg_color_space == JCS_YCCK;
    if (*cmyk)
        return true;
    r.info.out_color_space = r.info.num_components == 1 ? JCS_GRAYSCALE : JCS_EXT_BGR;
    jpeg_start_decompress(&r.info);
    return true;
}

bool jpegRows(JpegReader& r, unsigned char** rows, unsigned height)
{
    if (setjmp(r.jump))
        return false;
    while (r.info.output_scanline < height)
        jpeg_read_scanlines(&r.info, rows + r.info.output_scanline, height - r.info.output_scanline);
    jpeg_finish_decompress(&r.info);
    return true;
}

std::optional<cv::Mat> decodeJpeg(const std::string& path, File file, std::size_t maxBytes)
{
    JpegReader r;
    r.info.err = jpeg_std_error(&r.errors);
    r.errors.error_exit = onJpegError;
    r.errors.emit_message = onJpegMessage;
    r.info.client_data = &r;
    bool cmyk = false;
    if (!jpegHeader(r, file.get(), &cmyk))
        fail(LoadErrorKind::UnreadableImage, path, {}, "not a readable JPEG (libjpeg: " + std::string(r.message) + ")");
    if (cmyk)
        return std::nullopt;
    if (r.cutShort)
        fail(LoadErrorKind::Truncated, path, {}, "the JPEG file is cut short (libjpeg: " + std::string(r.message) + ")");
    const unsigned width = r.info.output_width, height = r.info.output_height;
    checkFloatMemory(path, {}, 1, checkedProduct({std::size_t(width), std::size_t(height), 3}), maxBytes);
    cv::Mat image(static_cast<int>(height), static_cast<int>(width), CV_8UC(r.info.output_components));
    std::vector<unsigned char*> rows(height);
    for (unsigned y = 0; y < height; ++y)
        rows[y] = image.ptr(static_cast<int>(y));
    if (!jpegRows(r, rows.data(), height))
        fail(LoadErrorKind::UnreadableImage, path, {}, "damaged JPEG data (libjpeg: " + std::string(r.message) + ")");
    if (r.cutShort)
        fail(LoadErrorKind::Truncated, path, {}, "the JPEG file is cut short (libjpeg: " + std::string(r.message) + ")");
    return image;
}

} // namespace

std::optional<cv::Mat> decodeSilently(const std::string& path, std::size_t maxBytes)
{
    File file(std::fopen(path.c_str(), "rb"));
    if (!file)
        return std::nullopt;  // the caller's checks name what is wrong
    unsigned char head[8] = {};
    const std::size_t got = std::fread(head, 1, sizeof head, file.get());
    std::rewind(file.get());
    static const unsigned char kPng[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (got == 8 && std::memcmp(head, kPng, 8) == 0)
        return decodePng(path, std::move(file), maxBytes);
    if (got >= 3 && head[0] == 0xFF && head[1] == 0xD8 && head[2] == 0xFF)
        return decodeJpeg(path, std::move(file), maxBytes);
    return std::nullopt;
}

} // namespace orbit::data
