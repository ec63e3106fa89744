// The user's kernel: a host softmax over an M x N row-major batch (max, sum in double, divide).
#include <cmath>
#include <cstdint>

void my_softmax(const float* x, float* y, std::int64_t m, std::int64_t n) {
  for (std::int64_t i = 0; i < m; ++i) {
    const float* row = x + i * n;
    float max = -INFINITY;
    for (std::int64_t j = 0; j < n; ++j) max = std::fmax(max, row[j]);
    double sum = 0;
    for (std::int64_t j = 0; j < n; ++j) sum += std::exp(static_cast<double>(row[j]) - max);
    for (std::int64_t j = 0; j < n; ++j)
      y[i * n + j] = static_cast<float>(std::exp(static_cast<double>(row[j]) - max) / sum);
  }
}
