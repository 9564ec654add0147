package pad

import (
	"bytes"
	"flag"
	"fmt"
	"testing"

	"github.com/tensorpad/pad/internal/suite"
)

// BenchmarkSuite runs the peer harness's suite (../shared/peers/cases.json,
// or the built-in copy in internal/suite when it is absent) the way the
// harness's pad peer does: a Plan compiled once, RunBytes into a
// pre-allocated output. Each case has three implementations in the same
// run: impl=pad (the kernels in use), impl=generic (the Go path) and
// impl=memmove (copy of the output's bytes, the harness's baseline). Compare
// them with
//
//	go test -run '^$' -bench Suite -count 10 | tee s.txt
//	benchstat -col /impl s.txt
//
// MB/s counts input plus output bytes, as the harness's GB/s does.
// -suite.workers N passes Workers(N) to NewPlan (0: the package default).
func BenchmarkSuite(b *testing.B) {
	cases, source, err := suite.LoadOrBuiltin(suite.PeersPath)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("suite: %s; kernels: %s", source, Kernels())
	benchCases(b, cases)
}

// BenchmarkExtra runs shapes the peer suite lacks, in the same form: an
// innermost axis of 3 elements below two padded axes (NHWC images), short
// wrapped rows, and planes of rows wider than the shuffle kernel's whose pad
// rows come from input rows (a planar uint8 image reflected, small float32
// planes edge-padded).
func BenchmarkExtra(b *testing.B) {
	benchCases(b, []suite.Case{
		{Name: "nhwc_edge", DType: "float32", Shape: []int{1, 224, 224, 3}, Mode: "edge", Pads: []int{0, 2, 2, 0, 0, 2, 2, 0}},
		{Name: "rows_wrap", DType: "float32", Shape: []int{512, 100}, Mode: "wrap", Pads: []int{0, 30, 0, 30}},
		{Name: "chw_u8_reflect", DType: "uint8", Shape: []int{3, 224, 224}, Mode: "reflect", Pads: []int{0, 3, 3, 0, 3, 3}},
		{Name: "planes_edge", DType: "float32", Shape: []int{1, 3, 100, 100}, Mode: "edge", Pads: []int{0, 0, 2, 2, 0, 0, 2, 2}},
		// Geometries a survey of conv-style pads found far from a copy:
		// 7x7 planes reflected by 3 (the planner once made them element by
		// element), wrapped rows of 136 bytes and uint8 rows of 116 bytes
		// padded with zeros (the wide and byte expand kernels on a Zen 5).
		{Name: "small_planes_reflect3", DType: "uint8", Shape: []int{1, 512, 7, 7}, Mode: "reflect", Pads: []int{0, 0, 3, 3, 0, 0, 3, 3}},
		{Name: "planes_wrap3", DType: "float32", Shape: []int{1, 128, 28, 28}, Mode: "wrap", Pads: []int{0, 0, 3, 3, 0, 0, 3, 3}},
		{Name: "u8_conv_zero2", DType: "uint8", Shape: []int{1, 32, 112, 112}, Mode: "constant", Pads: []int{0, 0, 2, 2, 0, 0, 2, 2}},
		// Rows of 4 to 32 bytes, which CPUs without AVX-512 VBMI make by
		// the narrow shuffle kernel (KERNELS.md item 17): uint8 28x28
		// planes, int16 7x7 planes, and planes of 4x4 taken as one row.
		{Name: "u8_planes28_reflect1", DType: "uint8", Shape: []int{1, 128, 28, 28}, Mode: "reflect", Pads: []int{0, 0, 1, 1, 0, 0, 1, 1}},
		{Name: "i16_planes7_zero1", DType: "int16", Shape: []int{1, 512, 7, 7}, Mode: "constant", Pads: []int{0, 0, 1, 1, 0, 0, 1, 1}},
		{Name: "u8_planes4_edge1", DType: "uint8", Shape: []int{1, 1024, 4, 4}, Mode: "edge", Pads: []int{0, 0, 1, 1, 0, 0, 1, 1}},
		// Planes of 2x2 padded to 4x4, in groups though the narrow kernel
		// takes them (narrowGroupMax).
		{Name: "u8_planes2_edge1", DType: "uint8", Shape: []int{1, 16384, 2, 2}, Mode: "edge", Pads: []int{0, 0, 1, 1, 0, 0, 1, 1}},
		// ... and 3x1 padded to 6x2 with a value: with VBMI in groups by
		// the AVX2 blocks kernel (vbmiValueGroupMax).
		{Name: "u8_planes3x1_value", DType: "uint8", Shape: []int{1, 16384, 3, 1}, Mode: "constant", Pads: []int{0, 0, 2, 1, 0, 0, 1, 0}, Value: 3},
		// Rows of 33 to 64 bytes from 16 to 32 (two 32-byte blocks a row).
		{Name: "u8_planes28_edge3", DType: "uint8", Shape: []int{1, 128, 28, 28}, Mode: "edge", Pads: []int{0, 0, 3, 3, 0, 0, 3, 3}},
		{Name: "i16_planes14_zero3", DType: "int16", Shape: []int{1, 128, 14, 14}, Mode: "constant", Pads: []int{0, 0, 3, 3, 0, 0, 3, 3}},
		// Small planes of rows up to 24 bytes, which CPUs without VBMI make
		// by 32-byte blocks (KERNELS.md item 18).
		{Name: "u8_planes7_edge1", DType: "uint8", Shape: []int{1, 512, 7, 7}, Mode: "edge", Pads: []int{0, 0, 1, 1, 0, 0, 1, 1}},
		{Name: "u8_planes14_reflect2", DType: "uint8", Shape: []int{1, 256, 14, 14}, Mode: "reflect", Pads: []int{0, 0, 2, 2, 0, 0, 2, 2}},
		{Name: "i16_planes5_edge1", DType: "int16", Shape: []int{1, 512, 5, 5}, Mode: "edge", Pads: []int{0, 0, 1, 1, 0, 0, 1, 1}},
		// ... and padded with a nonzero value, which the blocks kernel ORs in.
		{Name: "u8_planes7_value1", DType: "uint8", Shape: []int{1, 512, 7, 7}, Mode: "constant", Pads: []int{0, 0, 1, 1, 0, 0, 1, 1}, Value: 3},
		// Rows of a few bytes, many at a time (rowBlocksOf): points padded
		// to homogeneous coordinates, pairs reflected to triples.
		{Name: "f32_points_value1", DType: "float32", Shape: []int{16384, 3}, Mode: "constant", Pads: []int{0, 0, 0, 1}, Value: 1},
		{Name: "u8_pairs_reflect1", DType: "uint8", Shape: []int{65536, 2}, Mode: "reflect", Pads: []int{0, 1, 0, 0}},
		// Long runs of constant rows by the expand kernels (rowExpandOf):
		// an RGB image given an opaque alpha channel, and int16 rows of 5
		// padded to 10 with a value.
		{Name: "u8_rgb_alpha", DType: "uint8", Shape: []int{224 * 224, 3}, Mode: "constant", Pads: []int{0, 0, 0, 1}, Value: 255},
		{Name: "i16_rows5_value", DType: "int16", Shape: []int{10240, 5}, Mode: "constant", Pads: []int{0, 3, 0, 2}, Value: 3},
		// Cubes of planes and pad planes by the expand kernel (cubeExpandOf):
		// a batch of RGB images given a fourth channel and a conv pad.
		{Name: "f32_batch_channels", DType: "float32", Shape: []int{8, 3, 32, 32}, Mode: "constant", Pads: []int{0, 0, 1, 1, 0, 1, 1, 1}},
		// Tall planes of narrow rows (over 1 KiB: largeBlocksPay).
		{Name: "u8_tall_edge1", DType: "uint8", Shape: []int{1, 128, 120, 10}, Mode: "edge", Pads: []int{0, 0, 1, 1, 0, 0, 1, 1}},
		// Tall planes of float32 pairs padded to triples: with VBMI the
		// long run by the chunks kernel (rowChunksPlaneMin).
		{Name: "f32_tall_edge", DType: "float32", Shape: []int{32, 3, 173, 2}, Mode: "edge", Pads: []int{0, 0, 0, 0, 0, 0, 2, 1}},
		// Shorter planes of float32 pairs padded to quadruples: with VBMI
		// by the AVX2 blocks kernel (blockTable.byAVX2).
		{Name: "f32_planes96_edge1", DType: "float32", Shape: []int{64, 96, 2}, Mode: "edge", Pads: []int{0, 1, 1, 0, 1, 1}},
		// Rows of 22 bytes, five at a time as one row of the VBMI level's
		// shuffle kernel (rowGroupOf).
		{Name: "u8_rows19_edge", DType: "uint8", Shape: []int{8192, 19}, Mode: "edge", Pads: []int{0, 1, 0, 2}},
		// Wrapped rows of 13 bytes by the blocks kernel, whose blocks make
		// 24 bytes each (rowBlocksOf): the AVX2 level.
		{Name: "u8_rows11_wrap", DType: "uint8", Shape: []int{8192, 11}, Mode: "wrap", Pads: []int{0, 0, 0, 2}},
		// int16 planes of 36-byte rows, which no shuffle kernel of the AVX2
		// level takes: by the blocks kernel (blockTableOf).
		{Name: "i16_planes14_reflect2", DType: "int16", Shape: []int{1, 256, 14, 14}, Mode: "reflect", Pads: []int{0, 0, 2, 2, 0, 0, 2, 2}},
		// Planes of wrapped 24-byte rows with a wrapped pad row: the run of
		// 102 rows by groups of five, the pad row by the list
		// (planesByGroups).
		{Name: "u8_planes102_wrap", DType: "uint8", Shape: []int{123, 102, 21}, Mode: "wrap", Pads: []int{0, 0, 1, 0, 1, 2}},
		// Rows of one float64 edge-padded to five: without VBMI by the
		// narrow shuffle kernel's 8-byte pieces and 32-byte blocks (C8O32).
		{Name: "f64_rows1_edge2", DType: "float64", Shape: []int{64, 254, 1}, Mode: "edge", Pads: []int{0, 1, 2, 0, 1, 2}},
		// Planes of two float64 rows of 54 edge-padded to four of 59: the
		// middles by the rows kernel, not a lines call a plane (linesRunMin).
		{Name: "f64_planes2_edge", DType: "float64", Shape: []int{108, 2, 54}, Mode: "edge", Pads: []int{0, 1, 2, 0, 1, 3}},
		{Name: "u8_planes28_value3", DType: "uint8", Shape: []int{1, 128, 28, 28}, Mode: "constant", Pads: []int{0, 0, 3, 3, 0, 0, 3, 3}, Value: 3},
		// Columns padded with a value, in planes after a pad plane: no
		// plane kernel of the VBMI level takes them (avx2Fallback).
		{Name: "u8_columns_value", DType: "uint8", Shape: []int{1, 300, 72, 1}, Mode: "constant", Pads: []int{0, 0, 0, 1, 0, 1, 0, 2}, Value: 3},
		// Tiny cubes: planes padded on their own axis too, the three
		// innermost levels one plane of the blocks kernel (cubes.go).
		{Name: "u8_cubes_reflect", DType: "uint8", Shape: []int{3220, 2, 2, 3}, Mode: "reflect", Pads: []int{0, 0, 0, 2, 0, 1, 1, 2}},
		{Name: "i16_cubes_value", DType: "int16", Shape: []int{1364, 1, 3, 1}, Mode: "constant", Pads: []int{0, 3, 0, 1, 0, 1, 2, 1}, Value: 3},
		// Small cubes of few segments: a planes call and a fill a cube,
		// or, across, a call for each for a batch of cubes (exec.go).
		{Name: "u8_cubes_across", DType: "uint8", Shape: []int{198, 1, 2, 84}, Mode: "constant", Pads: []int{0, 0, 0, 1, 0, 2, 2, 1}},
		{Name: "f32_cubes_across", DType: "float32", Shape: []int{239, 3, 4, 18}, Mode: "wrap", Pads: []int{0, 0, 1, 2, 0, 2, 1, 3}},
		// Rows of 22-byte units mirrored (pieceRowChunksOf; without VBMI
		// the pieces kernel), rows of 26-byte units edge-padded (the pieces
		// kernel).
		{Name: "u8_units_reflect3", DType: "uint8", Shape: []int{518, 11, 22}, Mode: "reflect", Pads: []int{0, 3, 0, 0, 3, 0}},
		{Name: "i16_units_edge1", DType: "int16", Shape: []int{1120, 6, 13}, Mode: "edge", Pads: []int{0, 1, 0, 0, 0, 0}},
		// Triples padded by their own width: at the levels without
		// VBMI, the spill classes of rowsConst (KERNELS.md item 4).
		{Name: "f32_triples_zero3", DType: "float32", Shape: []int{8192, 3}, Mode: "constant", Pads: []int{0, 3, 0, 3}},
		// Pads of 17 to 32 bytes, which CPUs without VBMI make by the word
		// ends kernel (KERNELS.md item 14b).
		{Name: "planes_wrap6", DType: "float32", Shape: []int{1, 79, 24, 24}, Mode: "wrap", Pads: []int{0, 0, 6, 6, 0, 0, 6, 6}},
		{Name: "f64_planes_reflect3", DType: "float64", Shape: []int{1, 105, 16, 16}, Mode: "reflect", Pads: []int{0, 0, 3, 3, 0, 0, 3, 3}},
		// Outputs of 65 to 160 elements, by the gather table (gatherMaxOut):
		// four float32 rows of 24 reflected to 28, a uint8 8x12 patch
		// edge-padded by 1.
		{Name: "f32_small_reflect", DType: "float32", Shape: []int{4, 24}, Mode: "reflect", Pads: []int{0, 2, 0, 2}},
		{Name: "u8_small_edge", DType: "uint8", Shape: []int{8, 12}, Mode: "edge", Pads: []int{1, 1, 1, 1}},
		// Small outputs of a few long runs, by the run table (gatherRuns):
		// a 1-D signal reflected by 3, four int16 sequences zero-padded
		// from 500 to 512.
		{Name: "f32_signal_reflect", DType: "float32", Shape: []int{1024}, Mode: "reflect", Pads: []int{3, 3}},
		{Name: "i16_seqs_zero", DType: "int16", Shape: []int{4, 500}, Mode: "constant", Pads: []int{0, 0, 0, 12}},
		// Matrices padded at both ends of their rows, past the tables:
		// with VBMI one call of the shuffle kernel over the row list
		// (onePlane).
		{Name: "f32_patch_edge1", DType: "float32", Shape: []int{20, 20}, Mode: "edge", Pads: []int{1, 1, 1, 1}},
		{Name: "u8_rows15_symmetric3", DType: "uint8", Shape: []int{71, 15}, Mode: "symmetric", Pads: []int{3, 3, 3, 3}},
		// A few narrow rows, which groups would leave rows over of: a
		// row at a time, one call (rowGroupsSplitMin).
		{Name: "u8_rows24_wrap3", DType: "uint8", Shape: []int{21, 24}, Mode: "wrap", Pads: []int{0, 0, 0, 3}},
	})
}

var suiteWorkers = flag.Int("suite.workers", 0, "BenchmarkSuite: pass Workers(`n`) to NewPlan (0: the package default)")

func benchCases(b *testing.B, cases []suite.Case) {
	var opts []Option
	if *suiteWorkers != 0 {
		opts = append(opts, Workers(*suiteWorkers))
	}
	for _, c := range cases {
		// Everything is made inside the case's b.Run, so a case -bench
		// filters out costs nothing.
		b.Run("case="+c.Name, func(b *testing.B) {
			r, spec := resolveCase(b, c)
			p, err := NewPlan(r.Shape, spec, opts...)
			if err != nil {
				b.Fatal(err)
			}
			benchPlan(b, p, r.Input(), r.OutBytes(), r.Elem.Size, r.ValueBytes)
		})
	}
}

// benchPlan times p's RunBytes from src into an output of outBytes, the
// generic path's and a memmove of the output in the same run, once it has
// checked that the two paths agree.
func benchPlan(b *testing.B, p *Plan, src []byte, outBytes, size int, value []byte) {
	dst := suite.AlignedBytes(outBytes)
	out := suite.AlignedBytes(outBytes) // memmove's destination
	run := func(b *testing.B) {
		if err := p.RunBytes(dst, src, size, value); err != nil {
			b.Fatal(err)
		}
	}

	// The two paths must agree before either is timed.
	run(b)
	want := bytes.Clone(dst)
	withLevel(levelGo, func() { run(b) })
	if !bytes.Equal(dst, want) {
		b.Fatalf("the generic path's output differs from the %s kernels'", active)
	}

	inOut := int64(len(src) + outBytes)
	b.Run("impl=pad", func(b *testing.B) {
		b.SetBytes(inOut)
		b.ReportAllocs()
		for b.Loop() {
			run(b)
		}
	})
	b.Run("impl=generic", func(b *testing.B) {
		b.SetBytes(inOut)
		b.ReportAllocs()
		withLevel(levelGo, func() {
			for b.Loop() {
				run(b)
			}
		})
	})
	b.Run("impl=memmove", func(b *testing.B) {
		b.SetBytes(inOut)
		b.ReportAllocs()
		for b.Loop() {
			copy(out, dst)
		}
	})
}

// BenchmarkInterior times interior padding (Spec.Interior, constant
// padding that dilates axes, as transposed convolutions and their
// gradients in XLA-style backends do) as benchCases times the suite: the
// dilated planes, or whole outputs, by the expand kernels (denseExpandOf).
func BenchmarkInterior(b *testing.B) {
	for _, c := range []struct {
		name                           string
		shape, before, after, interior []int
		size                           int
	}{
		// A stride-2 transposed convolution's input, dilated.
		{"f32_dilate1", []int{1, 64, 28, 28}, []int{0, 0, 0, 0}, []int{0, 0, 0, 0}, []int{0, 0, 1, 1}, 4},
		// ... and padded by 2 for its 5x5 kernel.
		{"f32_dilate1_pad2", []int{1, 32, 28, 28}, []int{0, 0, 2, 2}, []int{0, 0, 2, 2}, []int{0, 0, 1, 1}, 4},
		// The same in half precision (2-byte elements).
		{"f16_dilate1", []int{1, 64, 28, 28}, []int{0, 0, 0, 0}, []int{0, 0, 0, 0}, []int{0, 0, 1, 1}, 2},
		// An RGB image upsampled by zero insertion (the whole output one unit).
		{"u8_nhwc_dilate1", []int{1, 56, 56, 3}, []int{0, 1, 1, 0}, []int{0, 1, 1, 0}, []int{0, 1, 1, 0}, 1},
		// Signals upsampled by 4, rows too large for one table: a row a unit.
		{"f32_rows_dilate3", []int{64, 256}, []int{0, 0}, []int{0, 3}, []int{0, 3}, 4},
		// A stride-2 gradient of an odd size: dilated, the last row and column cropped.
		{"f32_dilate1_crop", []int{1, 64, 28, 28}, []int{0, 0, 0, 0}, []int{0, 0, -1, -1}, []int{0, 0, 1, 1}, 4},
		// Many small uint8 planes dilated and padded by 2.
		{"u8_small_planes", []int{1, 27, 9, 9}, []int{0, 0, 2, 2}, []int{0, 0, 2, 2}, []int{0, 0, 1, 1}, 1},
		// A batch of eight: 24 MiB out, written as the largest outputs are (streams).
		{"f32_batch_dilate1", []int{8, 64, 56, 56}, []int{0, 0, 0, 0}, []int{0, 0, 0, 0}, []int{0, 0, 1, 1}, 4},
	} {
		b.Run("case="+c.name, func(b *testing.B) {
			p, err := NewPlan(c.shape, Spec{Mode: Constant, Before: c.before, After: c.after, Interior: c.interior})
			if err != nil {
				b.Fatal(err)
			}
			in := make([]byte, c.size*prod(c.shape))
			for i := range in {
				in[i] = byte(i*7 + 1)
			}
			benchPlan(b, p, in, c.size*prod(p.OutShape()), c.size, nil)
		})
	}
}

// BenchmarkOneShot runs the suite as Into, Pad and the front-ends did
// before CachedPlan: a plan compiled for each run (impl=oneshot), beside
// RunBytes of a plan compiled once (impl=plan) and of the plan CachedPlan
// returns for each run, as they do now (impl=cached). A plan run once
// builds no periodic tables (tables.go): the difference is NewPlan, the
// row tables and the kernels that need no periodic tables.
func BenchmarkOneShot(b *testing.B) {
	setForTest(b, &periodicAtFirstRun, false) // as outside the tests
	cases, _, err := suite.LoadOrBuiltin(suite.PeersPath)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range cases {
		b.Run("case="+c.Name, func(b *testing.B) {
			r, spec := resolveCase(b, c)
			src, dst := r.Input(), suite.AlignedBytes(r.OutBytes())
			run := func(b *testing.B, p *Plan, err error) {
				if err != nil {
					b.Fatal(err)
				}
				if err := p.RunBytes(dst, src, r.Elem.Size, r.ValueBytes); err != nil {
					b.Fatal(err)
				}
			}
			inOut := int64(r.InBytes() + r.OutBytes())
			b.Run("impl=plan", func(b *testing.B) {
				b.SetBytes(inOut)
				b.ReportAllocs()
				p, err := NewPlan(r.Shape, spec)
				for b.Loop() {
					run(b, p, err)
				}
			})
			b.Run("impl=oneshot", func(b *testing.B) {
				b.SetBytes(inOut)
				b.ReportAllocs()
				for b.Loop() {
					p, err := NewPlan(r.Shape, spec)
					run(b, p, err)
				}
			})
			b.Run("impl=cached", func(b *testing.B) { // as Pad, Into and the front-ends
				withPlanCache(b, 64)
				b.SetBytes(inOut)
				b.ReportAllocs()
				for b.Loop() {
					p, err := CachedPlan(r.Shape, spec)
					run(b, p, err)
				}
			})
		})
	}
}

// resolveCase returns the case's arrays and its Spec.
func resolveCase(b *testing.B, c suite.Case) (*suite.Resolved, Spec) {
	r, err := c.Resolve()
	if err != nil {
		b.Fatal(err)
	}
	mode, err := ParseMode(r.Mode)
	if err != nil {
		b.Fatal(err)
	}
	return r, Spec{Mode: mode, Before: r.Before, After: r.After}
}

func prod(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

func ExampleKernels() {
	fmt.Println(Kernels() != "")
	// Output: true
}
