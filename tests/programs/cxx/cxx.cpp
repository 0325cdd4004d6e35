// SPDX-License-Identifier: GPL-3.0-or-later
// "cxx" test program: templates, namespaces, a class with methods and
// overloads, a lambda, and std::vector / std::sort, so that the profile holds
// long mangled names for the demangler.  Call counts are fixed.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#define NOINLINE __attribute__((noinline))

namespace geometry {
namespace detail {

template <typename T>
NOINLINE T accumulate_squares(const std::vector<T> &v)
{
	T total = T();
	for (const T &x : v)
		total += x * x;
	return total;
}

} // namespace detail

class Shape {
public:
	explicit Shape(int sides) : sides_(sides) {}
	virtual ~Shape() {}
	NOINLINE virtual double area(double scale) const;
	NOINLINE int sides() const { return sides_; }
	NOINLINE static Shape make(int sides) { return Shape(sides); }

private:
	int sides_;
};

double Shape::area(double scale) const
{
	double a = 0;
	for (int i = 0; i < 40000; i++)
		a += scale * sides_ / (i + 1.0);
	return a;
}

template <typename T, int N>
struct Matrix {
	T cell[N][N];

	NOINLINE void fill(T seed)
	{
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				cell[i][j] = seed + T(i * N + j);
	}

	NOINLINE T trace_product(const Matrix &other) const
	{
		T t = T();
		for (int i = 0; i < N; i++)
			for (int k = 0; k < N; k++)
				t += cell[i][k] * other.cell[k][i];
		return t;
	}
};

} // namespace geometry

namespace text {

NOINLINE unsigned long mix(unsigned long h, int v)
{
	return (h ^ (unsigned long)v) * 1099511628211UL;
}

NOINLINE unsigned long mix(unsigned long h, const std::string &s)
{
	for (char c : s)
		h = (h ^ (unsigned char)c) * 1099511628211UL;
	return h;
}

NOINLINE unsigned long mix(unsigned long h, double d)
{
	return mix(h, (int)(d * 1000));
}

} // namespace text

static std::vector<int> make_data(unsigned seed, size_t n)
{
	std::vector<int> v(n);
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		v[i] = (int)(seed >> 8);
	}
	return v;
}

int main()
{
	unsigned long h = 14695981039346656037UL;
	geometry::Matrix<double, 48> m1, m2;
	geometry::Shape tri = geometry::Shape::make(3);

	for (int round = 0; round < 250; round++) {
		std::vector<int> data = make_data((unsigned)round, 20000);
		auto by_low_bits = [](int a, int b) {
			return (a & 0xffff) < (b & 0xffff);
		};
		std::sort(data.begin(), data.end(), by_low_bits);
		h = text::mix(h, data[round]);
		h = text::mix(h, std::string("round"));
		h = text::mix(h, tri.area(round * 0.5));
		h = text::mix(h, tri.sides());

		std::vector<long> longs(data.begin(), data.begin() + 3000);
		h = text::mix(h, (int)geometry::detail::accumulate_squares(longs));
		m1.fill(round);
		m2.fill(round + 1.5);
		h = text::mix(h, m1.trace_product(m2));
	}
	std::printf("%lu\n", h & 0xffff);
	return 0;
}
