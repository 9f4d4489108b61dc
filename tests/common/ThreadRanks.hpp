#pragma once
// A job of P ranks played by P threads of this process: send, receive and broadcast go through
// mailboxes in memory, so the collective block sums run as they do under mpirun (each rank its own
// leaves, the partial sums travelling to the root and the sum back), without MPI.
#include "PlayedRank.hpp"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace orbittest {

class ThreadJob {
public:
    explicit ThreadJob(int size) : size_(size), boxes_(std::size_t(size * size)) {}
    int size() const { return size_; }
    void post(int from, int to, Eigen::MatrixXd m)
    {
        Box& b = box(from, to);
        {
            const std::lock_guard<std::mutex> lock(b.m);
            b.q.push_back(std::move(m));
        }
        b.cv.notify_one();
    }
    Eigen::MatrixXd take(int from, int to)
    {
        Box& b = box(from, to);
        std::unique_lock<std::mutex> lock(b.m);
        b.cv.wait(lock, [&] { return !b.q.empty(); });
        Eigen::MatrixXd m = std::move(b.q.front());
        b.q.pop_front();
        return m;
    }

private:
    struct Box {
        std::mutex m;
        std::condition_variable cv;
        std::deque<Eigen::MatrixXd> q;
    };
    Box& box(int from, int to) { return boxes_[std::size_t(from * size_ + to)]; }
    int size_;
    std::vector<Box> boxes_;
};

/// Rank `me` of a ThreadJob (messages in order per pair of ranks, as MPI's).
class ThreadRank final : public PlayedRank {
public:
    ThreadRank(ThreadJob& job, int me) : PlayedRank(me, job.size()), job_(job) {}
    void send(const Eigen::MatrixXd& M, int to) const override { job_.post(rank(), to, M); }
    Eigen::MatrixXd receive(int from) const override { return job_.take(from, rank()); }
    void broadcast(Eigen::MatrixXd& M, int from) const override
    {
        if (rank() == from) {
            for (int q = 0; q < size(); ++q)
                if (q != from) job_.post(from, q, M);
        } else {
            M = job_.take(from, rank());
        }
    }

private:
    ThreadJob& job_;
};

/// body(ranks) on each of `size` ranks, one thread each; their results in rank order. An exception
/// on any rank is rethrown here (after every thread has ended).
template <class Body>
auto onThreadRanks(int size, Body body)
{
    using Result = decltype(body(std::declval<const orbit::Ranks&>()));
    ThreadJob job(size);
    std::vector<Result> out(static_cast<std::size_t>(size));
    std::vector<std::exception_ptr> failed(static_cast<std::size_t>(size));
    std::vector<std::thread> threads;
    for (int q = 0; q < size; ++q)
        threads.emplace_back([&, q] {
            try {
                const ThreadRank rank(job, q);
                out[std::size_t(q)] = body(rank);
            } catch (...) {
                failed[std::size_t(q)] = std::current_exception();
            }
        });
    for (std::thread& t : threads) t.join();
    for (const std::exception_ptr& e : failed)
        if (e) std::rethrow_exception(e);
    return out;
}

} // namespace orbittest
