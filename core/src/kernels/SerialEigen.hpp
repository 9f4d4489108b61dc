#pragma once
// Private: Eigen's own threading picks its product blocking from the thread count, which changes
// float rounding. Products whose results must not depend on --threads run under this guard.
#include <Eigen/Core>

namespace orbit::detail {

class SerialEigen {
public:
    SerialEigen() : saved_(Eigen::nbThreads()) { Eigen::setNbThreads(1); }
    ~SerialEigen() { Eigen::setNbThreads(saved_); }
    SerialEigen(const SerialEigen&) = delete;
    SerialEigen& operator=(const SerialEigen&) = delete;

private:
    int saved_;
};

} // namespace orbit::detail
