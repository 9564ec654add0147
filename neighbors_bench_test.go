//go:build unix

package pad

import (
	"bytes"
	"testing"
	"time"

	"github.com/tensorpad/pad/internal/suite"
	"golang.org/x/sys/unix"
)

// BenchmarkNeighborPages times Plans whose input and output end at a page
// boundary, with the page after each never touched (pages=absent: not
// present, as after a fresh mmap or a large allocation's end) or written
// once (pages=present). A masked load or store whose masked bytes lie in a
// page that is not present costs a microcode assist on AMD's Zen 5 (about
// 190 ns each time, though it reads and writes nothing there), so kernels
// keep such accesses inside the pages of their buffers. Compare with
//
//	go test -run '^$' -bench NeighborPages -count 10 | tee n.txt
//	benchstat -col /pages n.txt
//
// Suite case c (the shuffle kernel's loads of its last rows) and planes of
// 32-byte int16 rows (its masked stores of the last rows) went from about
// +240 ns absent to even on an Oxide Zen 5 VM, and small uint8 planes (the
// chunks kernel's loads of the last plane) from about +220 ns. The last
// five cases are the general rows loop's last rows (a pad over 64 bytes,
// once with short src rows), a short reversal, the chunks kernel's planes
// near the input's end and the wide kernel's short middle, each once +190
// to +1400 ns absent.
func BenchmarkNeighborPages(b *testing.B) {
	cases := []suite.Case{
		{Name: "c_edge_small", DType: "float32", Shape: []int{1, 256, 14, 14}, Mode: "edge", Pads: []int{0, 0, 1, 1, 0, 0, 1, 1}},
		{Name: "i16_rows32_edge1", DType: "int16", Shape: []int{1, 256, 14, 14}, Mode: "edge", Pads: []int{0, 0, 1, 1, 0, 0, 1, 1}},
		{Name: "f32_planes7_reflect1", DType: "float32", Shape: []int{1, 512, 7, 7}, Mode: "reflect", Pads: []int{0, 0, 1, 1, 0, 0, 1, 1}},
		{Name: "u8_planes14_edge1", DType: "uint8", Shape: []int{1, 256, 14, 14}, Mode: "edge", Pads: []int{0, 0, 1, 1, 0, 0, 1, 1}},
		{Name: "u8_planes8_edge2", DType: "uint8", Shape: []int{1, 512, 8, 8}, Mode: "edge", Pads: []int{0, 0, 2, 2, 0, 0, 2, 2}},
		{Name: "f32_expand_const3", DType: "float32", Shape: []int{1, 256, 14, 14}, Mode: "constant", Pads: []int{0, 0, 3, 3, 0, 0, 3, 3}},
		{Name: "u8_expand_const1", DType: "uint8", Shape: []int{1, 128, 28, 28}, Mode: "constant", Pads: []int{0, 0, 1, 1, 0, 0, 1, 1}},
		{Name: "g_u8_reflect", DType: "uint8", Shape: []int{1, 32, 112, 112}, Mode: "reflect", Pads: []int{0, 0, 2, 2, 0, 0, 2, 2}},
		{Name: "i64_rows_zero14", DType: "int64", Shape: []int{8, 50}, Mode: "constant", Pads: []int{0, 0, 0, 14}},
		{Name: "f64_column_value", DType: "float64", Shape: []int{66, 1}, Mode: "constant", Pads: []int{0, 13, 0, 36}, Value: 3},
		{Name: "i16_pairs_reflect", DType: "int16", Shape: []int{64, 2}, Mode: "reflect", Pads: []int{2, 1, 2, 1}},
		{Name: "u8_planes2x20_symmetric", DType: "uint8", Shape: []int{80, 2, 20}, Mode: "symmetric", Pads: []int{0, 1, 19, 0, 1, 19}},
		{Name: "u8_rows17_zero", DType: "uint8", Shape: []int{56, 5, 17}, Mode: "constant", Pads: []int{1, 0, 0, 0, 3, 0}},
	}
	for _, c := range cases {
		b.Run("case="+c.Name, func(b *testing.B) {
			r, spec := resolveCase(b, c)
			p, err := NewPlan(r.Shape, spec, Workers(1))
			if err != nil {
				b.Fatal(err)
			}
			want := make([]byte, r.OutBytes())
			if err := p.RunBytes(want, r.Input(), r.Elem.Size, r.ValueBytes); err != nil {
				b.Fatal(err)
			}
			for _, present := range []bool{false, true} {
				name := "pages=absent"
				if present {
					name = "pages=present"
				}
				b.Run(name, func(b *testing.B) {
					src := pageEndBuffer(b, r.InBytes(), present)
					copy(src, r.Input())
					dst := pageEndBuffer(b, r.OutBytes(), present)
					b.SetBytes(int64(r.InBytes() + r.OutBytes()))
					b.ReportAllocs()
					for b.Loop() {
						if err := p.RunBytes(dst, src, r.Elem.Size, r.ValueBytes); err != nil {
							b.Fatal(err)
						}
					}
					if !bytes.Equal(dst, want) {
						b.Fatal("output differs from a run into the Go heap")
					}
				})
			}
		})
	}
}

// pageEndBuffer maps n bytes that end at a page boundary, followed by a
// page that is written once (present) or never (not present), unmapped
// when the benchmark ends.
func pageEndBuffer(b *testing.B, n int, present bool) []byte {
	page := unix.Getpagesize()
	pages := (n + page - 1) / page
	mem, err := unix.Mmap(-1, 0, (pages+1)*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		b.Fatalf("mmap: %v", err)
	}
	b.Cleanup(func() { unix.Munmap(mem) })
	if present {
		mem[pages*page] = 1
	}
	return mem[pages*page-n : pages*page : pages*page]
}

// BenchmarkGridNeighborPages runs every kernel call of the guard tests'
// grid (reduced) with its output and inputs ending at a page boundary, the
// page after each never touched or written once, and reports how many
// calls took over 100 ns longer with it absent (slow-calls): a masked
// access whose masked-off bytes lie in such a page costs a microcode
// assist on AMD's Zen 5 (about 190 ns), which no test can see. The first
// run of this survey found every short fill, copy and reversal and the
// general rows loop's calls (rowsConst, rowsEdgeK); -v lists the kernels
// of the calls it counts.
func BenchmarkGridNeighborPages(b *testing.B) {
	var ks *asmKernels
	for i := range asmKernelSets {
		if asmKernelSets[i].level == active && asmKernelSets[i].supported {
			ks = &asmKernelSets[i]
		}
	}
	if ks == nil {
		b.Skip("no assembly kernels in use")
	}
	const page, pages = 4096, 40
	var ends [2][4][]byte // absent, present; dst and up to three inputs, each ending at a page
	for p := range ends {
		for i := range ends[p] {
			r := pageEndBuffer(b, (pages-1)*page, p == 1)
			for j := 0; j < len(r); j += page {
				r[j] = 1 // every page of the region present
			}
			ends[p][i] = r
		}
	}
	// at returns the n bytes that end buffer i's region, and a pointer to
	// them (to the region's first byte when n is 0).
	at := func(p, i, n int) ([]byte, *byte) {
		r := ends[p][i]
		if n == 0 {
			return nil, &r[0]
		}
		return r[len(r)-n:], &r[len(r)-n]
	}
	slow := map[string]int{}
	total := 0
	for b.Loop() {
		clear(slow)
		total = 0
		gridKernelCalls(*ks, gridDensity{reduced: true}, func(c *gridCall) {
			if c.dstLen > (pages-1)*page {
				return
			}
			var best [2]time.Duration
			ptrs := make([]*byte, len(c.in))
			for p := range best {
				_, dp := at(p, 0, c.dstLen)
				for i, in := range c.in {
					b, ip := at(p, i+1, len(in))
					copy(b, in)
					ptrs[i] = ip
				}
				c.call(dp, ptrs)
				best[p] = time.Hour
				for range 5 {
					t0 := time.Now()
					for range 20 {
						c.call(dp, ptrs)
					}
					best[p] = min(best[p], time.Since(t0)/20)
				}
			}
			if best[0]-best[1] > 100*time.Nanosecond {
				slow[c.kernel]++
				total++
			}
		})
	}
	b.ReportMetric(float64(total), "slow-calls")
	if total > 0 {
		b.Logf("calls over 100 ns slower with the page after absent, by kernel: %v", slow)
	}
}
