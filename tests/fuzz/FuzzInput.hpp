#pragma once
// Helpers shared by the libFuzzer targets: the loaders read paths, so each input is written to a
// private temporary file first (one per fuzzing process, rewritten for every input).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

namespace orbitfuzz {

/// A temporary file `<TMPDIR>/orbitfuzz-XXXXXX<suffix>` that holds the current input; removed at exit.
class TempInput {
public:
    explicit TempInput(const std::string& suffix)
    {
        const char* dir = std::getenv("TMPDIR");
        std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/orbitfuzz-XXXXXX" + suffix;
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back('\0');
        const int fd = mkstemps(buf.data(), static_cast<int>(suffix.size()));
        if (fd < 0) {
            std::perror("mkstemps");
            std::abort();
        }
        close(fd);
        path_ = buf.data();
    }
    ~TempInput() { std::remove(path_.c_str()); }
    TempInput(const TempInput&) = delete;
    TempInput& operator=(const TempInput&) = delete;

    /// Replaces the file's content with the input bytes; returns its path.
    const std::string& write(const std::uint8_t* data, std::size_t size)
    {
        std::FILE* f = std::fopen(path_.c_str(), "wb");
        if (!f || (size > 0 && std::fwrite(data, 1, size, f) != size) || std::fclose(f) != 0) {
            std::perror(path_.c_str());
            std::abort();
        }
        return path_;
    }

private:
    std::string path_;
};

/// Splits the input into at most n lines (the last part keeps any further newlines).
inline std::vector<std::string> lines(const std::uint8_t* data, std::size_t size, std::size_t n)
{
    std::vector<std::string> out;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    while (out.size() + 1 < n) {
        const std::size_t nl = text.find('\n');
        if (nl == std::string_view::npos)
            break;
        out.emplace_back(text.substr(0, nl));
        text.remove_prefix(nl + 1);
    }
    out.emplace_back(text);
    out.resize(n);
    return out;
}

} // namespace orbitfuzz
