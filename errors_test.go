package pad

// Every bad input of the API contract: the sentinel, a message naming the axis and the
// numbers, dst untouched, no panic.

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

type etRow struct {
	name string
	want error
	// msg: each entry must occur in the message (case-insensitive); "a|b" accepts either.
	msg []string
	// run makes the call and reports whether dst (or the shared buffer) changed.
	run func() (err error, dstChanged bool)
}

const etMark = 0x7fc0de00 // NaN payload marking untouched float32 destinations

func etFill32(n int) []float32 {
	d := make([]float32, n)
	for i := range d {
		d[i] = math.Float32frombits(etMark + uint32(i%256))
	}
	return d
}

func etChanged32(d []float32) bool {
	for i := range d {
		if math.Float32bits(d[i]) != etMark+uint32(i%256) {
			return true
		}
	}
	return false
}

func etFillB(n int) []byte {
	d := make([]byte, n)
	for i := range d {
		d[i] = byte(0xA5 ^ i)
	}
	return d
}

func etChangedB(d []byte) bool {
	for i := range d {
		if d[i] != byte(0xA5^i) {
			return true
		}
	}
	return false
}

// etDst32 calls f with a marked float32 dst of n elements.
func etDst32(n int, f func(dst []float32) error) func() (error, bool) {
	return func() (error, bool) {
		dst := etFill32(n)
		err := f(dst)
		return err, etChanged32(dst)
	}
}

// etDstB calls f with a marked byte dst of n bytes.
func etDstB(n int, f func(dst []byte) error) func() (error, bool) {
	return func() (error, bool) {
		dst := etFillB(n)
		err := f(dst)
		return err, etChangedB(dst)
	}
}

func etSeq32(n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(i + 1)
	}
	return s
}

// etSpecRows makes one row per entry point that validates a Spec.
func etSpecRows(name string, shape []int, s Spec, want error, msg ...string) []etRow {
	n := rtSmallProduct(shape, 1<<20)
	var src []float32
	if n > 0 {
		src = etSeq32(n)
	}
	return []etRow{
		{name + "/NewPlan", want, msg, func() (error, bool) {
			p, err := NewPlan(shape, s)
			return err, p != nil
		}},
		{name + "/Spec.OutShape", want, msg, func() (error, bool) {
			out, err := s.OutShape(shape)
			return err, out != nil
		}},
		{name + "/Pad", want, msg, func() (error, bool) {
			out, sh, err := Pad(src, shape, s, 1)
			return err, out != nil || sh != nil
		}},
		{name + "/Into", want, msg, etDst32(6, func(dst []float32) error {
			return Into(dst, src, shape, s, 1)
		})},
	}
}

func etPlan(t *testing.T, shape []int, s Spec) *Plan {
	t.Helper()
	p, err := NewPlan(shape, s)
	if err != nil {
		t.Fatalf("NewPlan(%v, %+v): %v", shape, s, err)
	}
	return p
}

func TestErrorTable(t *testing.T) {
	z2 := []int{0, 0}
	sp := func(m Mode, before, after []int) Spec { return Spec{Mode: m, Before: before, After: after} }
	var rows []etRow
	add := func(r ...etRow) { rows = append(rows, r...) }

	// Spec validation (api.md 1-3), through NewPlan, OutShape, Pad and Into.
	add(etSpecRows("unknown mode", []int{7, 11}, sp(Mode(9), z2, z2), ErrInvalidSpec, "9")...)
	add(etSpecRows("unknown order", []int{7, 11}, Spec{Mode: Constant, Order: Order(4), Before: z2, After: z2}, ErrInvalidSpec, "4")...)
	add(etSpecRows("unknown order, edge", []int{7, 11}, Spec{Mode: Edge, Order: Order(200), Before: z2, After: z2}, ErrInvalidSpec, "200")...)
	add(etSpecRows("before length", []int{7, 11, 13}, sp(Constant, []int{1, 2}, []int{0, 0, 0}), ErrInvalidSpec, "2", "3")...)
	add(etSpecRows("after length", []int{7, 11, 13}, sp(Edge, []int{0, 0, 0}, []int{0, 0, 0, 0, 0}), ErrInvalidSpec, "5", "3")...)
	add(etSpecRows("nil pads for rank 2", []int{7, 11}, Spec{}, ErrInvalidSpec, "0", "2")...)
	add(etSpecRows("pads for rank 0", []int{}, sp(Constant, []int{1}, []int{1}), ErrInvalidSpec, "1", "0")...)
	add(etSpecRows("interior length", []int{7, 11}, Spec{Before: z2, After: z2, Interior: []int{1, 1, 1, 1}}, ErrInvalidSpec, "4", "2")...)
	add(etSpecRows("empty non-nil interior", []int{7, 11}, Spec{Before: z2, After: z2, Interior: []int{}}, ErrInvalidSpec, "0", "2")...)
	add(etSpecRows("negative interior", []int{7, 11}, Spec{Before: z2, After: z2, Interior: []int{0, -3}}, ErrInvalidSpec, "axis 1", "-3")...)
	add(etSpecRows("interior with edge", []int{7, 11}, Spec{Mode: Edge, Before: z2, After: z2, Interior: []int{2, 0}}, ErrInvalidSpec, "axis 0", "2")...)
	add(etSpecRows("interior with reflect on empty axis", []int{7, 0}, Spec{Mode: Reflect, Before: z2, After: z2, Interior: []int{0, 5}}, ErrInvalidSpec, "axis 1", "5")...)
	add(etSpecRows("negative dim", []int{7, -5}, sp(Constant, z2, z2), ErrInvalidSpec, "axis 1", "-5")...)
	add(etSpecRows("negative dim before bad interior", []int{-5, 7}, Spec{Mode: Edge, Before: z2, After: z2, Interior: []int{0, 1}}, ErrInvalidSpec, "axis 0", "-5")...)
	add(etSpecRows("negative output length", []int{7, 11}, sp(Constant, []int{0, -6}, []int{0, -6}), ErrInvalidSpec, "axis 1", "-1|-6")...)
	add(etSpecRows("negative output length, pad-then-crop", []int{7, 11}, Spec{Mode: Reflect, Order: PadThenCrop, Before: []int{-4, 0}, After: []int{-4, 0}}, ErrInvalidSpec, "axis 0", "-1|-4")...)
	add(etSpecRows("interior then negative length", []int{3}, Spec{Before: []int{-3}, After: []int{-3}, Interior: []int{1}}, ErrInvalidSpec, "axis 0", "-1|-3")...)
	add(etSpecRows("crop-then-pad window < 0", []int{7, 11}, sp(Reflect, []int{0, -12}, []int{0, 5}), ErrInvalidSpec, "axis 1", "-12|12")...)
	add(etSpecRows("crops past each other", []int{7, 11}, sp(Wrap, []int{0, -6}, []int{0, -6}), ErrInvalidSpec, "axis 1")...)
	for _, m := range []Mode{Reflect, Edge, Wrap, Symmetric} {
		for _, o := range []Order{CropThenPad, PadThenCrop} {
			name := "empty axis padded " + m.String() + " " + o.String()
			add(etSpecRows(name, []int{7, 0}, Spec{Mode: m, Order: o, Before: []int{0, 2}, After: z2}, ErrEmptyAxis, "axis 1")...)
			add(etSpecRows(name+" after", []int{0, 7}, Spec{Mode: m, Order: o, Before: z2, After: []int{3, 0}}, ErrEmptyAxis, "axis 0")...)
			// Output length 0; crop-then-pad has a window of -2 (ErrInvalidSpec comes first),
			// pad-then-crop pads the empty axis.
			want := ErrEmptyAxis
			if o == CropThenPad {
				want = ErrInvalidSpec
			}
			add(etSpecRows(name+" and cropped", []int{7, 0}, Spec{Mode: m, Order: o, Before: []int{0, 2}, After: []int{0, -2}}, want, "axis 1")...)
		}
		add(etSpecRows("window 0 padded "+m.String(), []int{7, 5}, sp(m, []int{0, -5}, []int{0, 3}), ErrEmptyAxis, "axis 1")...)
	}
	add(etSpecRows("pad overflow", []int{7, 11}, sp(Constant, []int{0, math.MaxInt}, z2), ErrTooLarge, "axis 1")...)
	add(etSpecRows("pad overflow after", []int{7, 11}, sp(Wrap, []int{math.MaxInt - 5, 0}, []int{6, 0}), ErrTooLarge, "axis 0")...)
	add(etSpecRows("pad overflow, empty axis", []int{0, 11}, sp(Constant, []int{math.MaxInt, 0}, []int{1, 0}), ErrTooLarge, "axis 0")...)
	// The exact output length decides: far below zero is a negative length,
	// and partial sums outside the int range do not matter.
	add(etSpecRows("negative pads below MinInt", []int{3}, sp(Constant, []int{math.MinInt}, []int{math.MinInt}), ErrInvalidSpec, "axis 0")...)
	add(etSpecRows("pads beyond MaxInt", []int{3}, sp(Constant, []int{math.MaxInt}, []int{math.MaxInt}), ErrTooLarge, "axis 0")...)
	add(etSpecRows("interior overflow", []int{7, 3}, Spec{Before: z2, After: z2, Interior: []int{0, math.MaxInt/2 + 1}}, ErrTooLarge, "axis 1")...)
	add(etSpecRows("interior MaxInt", []int{7, 2}, Spec{Before: z2, After: z2, Interior: []int{0, math.MaxInt}}, ErrTooLarge, "axis 1")...)
	add(etSpecRows("crop-then-pad, crop of MinInt", []int{7, 2}, sp(Edge, []int{0, math.MinInt}, []int{0, math.MaxInt}), ErrInvalidSpec, "axis 1")...)
	add(etSpecRows("input product overflow", []int{hugeDim, hugeDim, hugeDim}, sp(Constant, []int{0, 0, 0}, []int{0, 0, 0}), ErrTooLarge)...)
	add(etSpecRows("output product overflow", []int{1, 1, 1}, sp(Edge, []int{hugeDim, hugeDim, hugeDim}, []int{0, 0, 0}), ErrTooLarge)...)
	add(etSpecRows("input product overflow, empty output", []int{hugeDim, hugeDim, hugeDim}, sp(Constant, []int{0, 0, -hugeDim}, []int{0, 0, 0}), ErrTooLarge)...)
	add(etSpecRows("axis check before products", []int{hugeDim, hugeDim, hugeDim, -1}, sp(Constant, make([]int, 4), make([]int, 4)), ErrInvalidSpec, "axis 3")...)

	add(etRow{"ParseMode bogus", ErrInvalidSpec, []string{"bogus"}, func() (error, bool) {
		m, err := ParseMode("bogus")
		return err, m != 0
	}})
	add(etRow{"ParseMode empty", ErrInvalidSpec, nil, func() (error, bool) {
		_, err := ParseMode("")
		return err, false
	}})

	// Pad of a huge but representable output: refused before allocating.
	add(etRow{"Pad float32 output > 1<<47 bytes", ErrTooLarge, nil, func() (error, bool) {
		var out []float32
		var err error
		alloc := rtAllocBytes(func() {
			out, _, err = Pad(etSeq32(3), []int{3}, sp(Constant, []int{min(1<<45, math.MaxInt/4)}, []int{0}), 1)
		})
		return err, out != nil || alloc > 1<<20
	}})
	add(etRow{"Pad complex128 2-D output > 1<<47 bytes", ErrTooLarge, nil, func() (error, bool) {
		var out []complex128
		var err error
		alloc := rtAllocBytes(func() {
			out, _, err = Pad(make([]complex128, 4), []int{2, 2}, sp(Wrap, []int{1 << 23, 0}, []int{0, 1 << 23}), 1)
		})
		return err, out != nil || alloc > 1<<20
	}})
	add(etRow{"Pad uint8 output of 1<<62 elements", ErrTooLarge, nil, func() (error, bool) {
		var out []uint8
		var err error
		alloc := rtAllocBytes(func() { out, _, err = Pad([]uint8{1}, []int{1}, sp(Edge, []int{min(1<<62, math.MaxInt)}, []int{0}), 1) })
		return err, out != nil || alloc > 1<<20
	}})

	// Run-time argument checks on a valid plan.
	p := etPlan(t, []int{7, 11}, sp(Constant, []int{1, 0}, []int{0, 2})) // 77 -> 8x13 = 104
	pe := etPlan(t, []int{7, 11}, sp(Edge, []int{1, 0}, []int{0, 2}))
	src := etSeq32(77)
	add(
		etRow{"nil Plan Run", ErrInvalidSpec, []string{"nil"}, etDst32(104, func(dst []float32) error { return Run[float32](nil, dst, src, 1) })},
		etRow{"nil Plan RunStrided", ErrInvalidSpec, []string{"nil"}, etDst32(104, func(dst []float32) error {
			return RunStrided[float32](nil, dst, src, []int{11, 1}, 1)
		})},
		etRow{"nil Plan RunBytes", ErrInvalidSpec, []string{"nil"}, etDstB(104, func(dst []byte) error { return (*Plan)(nil).RunBytes(dst, make([]byte, 77), 1, nil) })},
		etRow{"nil Plan RunPacked", ErrInvalidSpec, []string{"nil"}, etDstB(52, func(dst []byte) error { return (*Plan)(nil).RunPacked(dst, make([]byte, 39), 4, 1) })},
		etRow{"Run short src", ErrShapeMismatch, []string{"76", "77"}, etDst32(104, func(dst []float32) error { return Run(p, dst, src[:76], 1) })},
		etRow{"Run long src", ErrShapeMismatch, []string{"78", "77"}, etDst32(104, func(dst []float32) error { return Run(pe, dst, append(etSeq32(77), 0), 1) })},
		etRow{"Run short dst", ErrShapeMismatch, []string{"103", "104"}, etDst32(103, func(dst []float32) error { return Run(p, dst, src, 1) })},
		etRow{"Run long dst", ErrShapeMismatch, []string{"105", "104"}, etDst32(105, func(dst []float32) error { return Run(pe, dst, src, 1) })},
		etRow{"Run nil src", ErrShapeMismatch, []string{"0", "77"}, etDst32(104, func(dst []float32) error { return Run(p, dst, nil, 1) })},
		etRow{"Run nil dst", ErrShapeMismatch, []string{"0", "104"}, func() (error, bool) { return Run(p, nil, src, 1), false }},
		etRow{"Run nil both", ErrShapeMismatch, nil, func() (error, bool) { return Run[string](p, nil, nil, ""), false }},
		etRow{"Into short dst", ErrShapeMismatch, []string{"100", "104"}, etDst32(100, func(dst []float32) error {
			return Into(dst, src, []int{7, 11}, sp(Symmetric, []int{1, 0}, []int{0, 2}), 1)
		})},
		etRow{"Into short src", ErrShapeMismatch, []string{"70", "77"}, etDst32(104, func(dst []float32) error {
			return Into(dst, src[:70], []int{7, 11}, sp(Constant, []int{1, 0}, []int{0, 2}), 1)
		})},
		etRow{"Pad short src", ErrShapeMismatch, []string{"70", "77"}, func() (error, bool) {
			out, sh, err := Pad(src[:70], []int{7, 11}, sp(Reflect, []int{1, 0}, []int{0, 2}), 1)
			return err, out != nil || sh != nil
		}},
		etRow{"Pad nil src", ErrShapeMismatch, []string{"77"}, func() (error, bool) {
			out, _, err := Pad[string](nil, []int{7, 11}, sp(Constant, []int{1, 0}, []int{0, 2}), "x")
			return err, out != nil
		}},
		etRow{"RunBytes elemSize 0", ErrInvalidSpec, []string{"0"}, etDstB(0, func(dst []byte) error { return p.RunBytes(dst, nil, 0, nil) })},
		etRow{"RunBytes elemSize -1", ErrInvalidSpec, []string{"-1"}, etDstB(104, func(dst []byte) error { return p.RunBytes(dst, make([]byte, 77), -1, nil) })},
		etRow{"RunBytes elemSize overflow", ErrTooLarge, nil, etDstB(104, func(dst []byte) error {
			return p.RunBytes(dst, make([]byte, 77), math.MaxInt/100, nil)
		})},
		etRow{"RunBytes short src", ErrShapeMismatch, []string{"307", "308"}, etDstB(416, func(dst []byte) error { return p.RunBytes(dst, make([]byte, 307), 4, nil) })},
		etRow{"RunBytes short dst", ErrShapeMismatch, []string{"415", "416"}, etDstB(415, func(dst []byte) error { return pe.RunBytes(dst, make([]byte, 308), 4, nil) })},
		etRow{"RunBytes nil slices", ErrShapeMismatch, nil, func() (error, bool) { return p.RunBytes(nil, nil, 4, nil), false }},
		etRow{"RunBytes value length", ErrShapeMismatch, []string{"3", "8"}, etDstB(832, func(dst []byte) error { return p.RunBytes(dst, make([]byte, 616), 8, []byte{1, 2, 3}) })},
		etRow{"RunBytes value too long", ErrShapeMismatch, []string{"9", "8"}, etDstB(832, func(dst []byte) error { return pe.RunBytes(dst, make([]byte, 616), 8, make([]byte, 9)) })},
		etRow{"RunPacked bits 3", ErrInvalidSpec, []string{"3"}, etDstB(39, func(dst []byte) error { return p.RunPacked(dst, make([]byte, 29), 3, 1) })},
		etRow{"RunPacked bits 8", ErrInvalidSpec, []string{"8"}, etDstB(104, func(dst []byte) error { return p.RunPacked(dst, make([]byte, 77), 8, 1) })},
		etRow{"RunPacked bits 0", ErrInvalidSpec, []string{"0"}, etDstB(52, func(dst []byte) error { return p.RunPacked(dst, make([]byte, 39), 0, 1) })},
		etRow{"RunPacked value 16 bits 4", ErrInvalidSpec, []string{"16|0x10", "4"}, etDstB(52, func(dst []byte) error { return p.RunPacked(dst, make([]byte, 39), 4, 16) })},
		etRow{"RunPacked value 4 bits 2", ErrInvalidSpec, []string{"4", "2"}, etDstB(26, func(dst []byte) error { return p.RunPacked(dst, make([]byte, 20), 2, 4) })},
		etRow{"RunPacked short src", ErrShapeMismatch, []string{"38", "39"}, etDstB(52, func(dst []byte) error { return p.RunPacked(dst, make([]byte, 38), 4, 1) })},
		etRow{"RunPacked long dst", ErrShapeMismatch, []string{"53", "52"}, etDstB(53, func(dst []byte) error { return pe.RunPacked(dst, make([]byte, 39), 4, 1) })},
		etRow{"RunPacked 2-bit short dst", ErrShapeMismatch, []string{"25", "26"}, etDstB(25, func(dst []byte) error { return pe.RunPacked(dst, make([]byte, 20), 2, 1) })},
		etRow{"RunStrided strides length", ErrInvalidSpec, []string{"1", "2"}, etDst32(104, func(dst []float32) error { return RunStrided(p, dst, src, []int{1}, 1) })},
		etRow{"RunStrided nil strides", ErrInvalidSpec, []string{"0", "2"}, etDst32(104, func(dst []float32) error { return RunStrided(p, dst, src, nil, 1) })},
		etRow{"RunStrided negative stride", ErrInvalidSpec, []string{"axis 1", "-1"}, etDst32(104, func(dst []float32) error {
			return RunStrided(p, dst, src, []int{11, -1}, 1)
		})},
		etRow{"RunStrided negative stride after empty axis", ErrInvalidSpec, []string{"axis 1", "-2"}, etDst32(0, func(dst []float32) error {
			pz := etPlan(t, []int{0, 3}, sp(Constant, z2, z2))
			return RunStrided(pz, dst, src, []int{3, -2}, 1)
		})},
		etRow{"RunStrided reads past src", ErrShapeMismatch, []string{"76"}, etDst32(104, func(dst []float32) error {
			return RunStrided(p, dst, src[:76], []int{11, 1}, 1)
		})},
		etRow{"RunStrided transposed reads past src", ErrShapeMismatch, []string{"77"}, etDst32(104, func(dst []float32) error {
			return RunStrided(pe, dst, src, []int{1, 8}, 1) // last offset 6*1 + 10*8 = 86
		})},
		etRow{"RunStrided nil src", ErrShapeMismatch, nil, etDst32(104, func(dst []float32) error {
			return RunStrided(p, dst, nil, []int{0, 0}, 1)
		})},
		etRow{"RunStrided stride overflow", ErrTooLarge, nil, etDst32(104, func(dst []float32) error {
			return RunStrided(p, dst, src, []int{math.MaxInt / 3, 1}, 1)
		})},
		etRow{"RunStrided rank 0 empty src", ErrShapeMismatch, nil, etDst32(1, func(dst []float32) error {
			p0 := etPlan(t, []int{}, Spec{})
			return RunStrided(p0, dst, []float32{}, []int{}, 1)
		})},
		etRow{"RunStrided short dst", ErrShapeMismatch, []string{"103", "104"}, etDst32(103, func(dst []float32) error {
			return RunStrided(p, dst, src, []int{11, 1}, 1)
		})},
	)

	// Overlapping dst and src (same backing array). The whole buffer must be unchanged.
	overlap := func(name string, f func(buf []float32) error) etRow {
		return etRow{name, ErrOverlap, nil, func() (error, bool) {
			buf := etFill32(300)
			err := f(buf)
			return err, etChanged32(buf)
		}}
	}
	pz := etPlan(t, []int{7, 11}, sp(Reflect, z2, z2)) // 77 -> 77
	add(
		overlap("Run overlap", func(b []float32) error { return Run(p, b[50:154], b[:77], 1) }),
		overlap("Run overlap dst first", func(b []float32) error { return Run(p, b[:104], b[103:180], 1) }),
		overlap("Run same slice", func(b []float32) error { return Run(pz, b[:77], b[:77], 1) }),
		overlap("Run src inside dst", func(b []float32) error { return Run(p, b[:104], b[10:87], 1) }),
		overlap("Into overlap", func(b []float32) error {
			return Into(b[76:180], b[:77], []int{7, 11}, sp(Constant, []int{1, 0}, []int{0, 2}), 1)
		}),
		overlap("RunStrided overlap", func(b []float32) error { return RunStrided(p, b[60:164], b[:77], []int{11, 1}, 1) }),
		overlap("RunStrided overlap unread tail", func(b []float32) error {
			// The view reads b[0:77] only, but src extends into dst.
			return RunStrided(p, b[150:254], b[:200], []int{11, 1}, 1)
		}),
		overlap("RunBytes overlap", func(b []float32) error {
			bb := etBytes(b)
			return p.RunBytes(bb[300:716], bb[:308], 4, nil)
		}),
		overlap("RunBytes overlap elemSize 3", func(b []float32) error {
			bb := etBytes(b)
			return p.RunBytes(bb[230:542], bb[:231], 3, nil)
		}),
		overlap("RunPacked overlap", func(b []float32) error {
			bb := etBytes(b)
			return p.RunPacked(bb[38:90], bb[:39], 4, 1)
		}),
	)

	for _, row := range rows {
		var err error
		var changed bool
		var panicked any
		func() {
			defer func() { panicked = recover() }()
			err, changed = row.run()
		}()
		if panicked != nil {
			t.Errorf("%s: panicked: %v", row.name, panicked)
			continue
		}
		if !errors.Is(err, row.want) {
			t.Errorf("%s: err = %v, want %v", row.name, err, row.want)
			continue
		}
		if changed {
			t.Errorf("%s: dst was modified (or a result returned) on error %v", row.name, err)
		}
		lower := strings.ToLower(err.Error())
		for _, m := range row.msg {
			ok := false
			for _, alt := range strings.Split(m, "|") {
				ok = ok || strings.Contains(lower, strings.ToLower(alt))
			}
			if !ok {
				t.Errorf("%s: message %q does not mention %q", row.name, err.Error(), m)
			}
		}
	}
	t.Logf("%d error rows", len(rows))
}

// etBytes views a float32 slice as bytes (same memory).
func etBytes(f []float32) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(f))), 4*len(f))
}

// TestAdjacentBuffersDoNotOverlap: dst and src cut from one array without sharing elements
// are fine, and so are empty slices at the boundary.
func TestAdjacentBuffersDoNotOverlap(t *testing.T) {
	p := etPlan(t, []int{7, 11}, Spec{Before: []int{1, 0}, After: []int{0, 2}})
	buf := make([]float32, 77+104)
	for i := range 77 {
		buf[i] = float32(i + 1)
	}
	want, _, err := Pad(buf[:77], []int{7, 11}, Spec{Before: []int{1, 0}, After: []int{0, 2}}, float32(-1))
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(p, buf[77:], buf[:77], -1); err != nil {
		t.Fatalf("adjacent dst after src: %v", err)
	}
	if !slices.EqualFunc(buf[77:], want, rtGenF32.eq) {
		t.Errorf("adjacent dst after src: wrong output")
	}
	buf2 := make([]float32, 104+77)
	copy(buf2[104:], buf[:77])
	if err := Run(p, buf2[:104], buf2[104:], -1); err != nil {
		t.Fatalf("adjacent dst before src: %v", err)
	}
	if !slices.EqualFunc(buf2[:104], want, rtGenF32.eq) {
		t.Errorf("adjacent dst before src: wrong output")
	}
	// An empty output never overlaps.
	pe := etPlan(t, []int{0, 3}, Spec{Mode: Edge, Before: []int{0, 1}, After: []int{0, 1}})
	if err := Run(pe, buf[:0], buf[:0], 1); err != nil {
		t.Errorf("empty dst and src from one array: %v", err)
	}
}

func TestParseModeAndStrings(t *testing.T) {
	for m := Constant; m <= Symmetric; m++ {
		for _, s := range []string{m.String(), strings.ToUpper(m.String())} {
			got, err := ParseMode(s)
			if err != nil || got != m {
				t.Errorf("ParseMode(%q) = %v, %v; want %v", s, got, err, m)
			}
		}
	}
	names := map[string]bool{}
	for _, m := range []Mode{Constant, Reflect, Edge, Wrap, Symmetric, Mode(9)} {
		names[m.String()] = true
	}
	for _, o := range []Order{CropThenPad, PadThenCrop, Order(9)} {
		names[o.String()] = true
	}
	if len(names) != 9 {
		t.Errorf("Mode/Order names are not distinct: %v", names)
	}
	if _, err := ParseMode(Mode(9).String()); !errors.Is(err, ErrInvalidSpec) {
		t.Errorf("ParseMode(%q) accepted", Mode(9).String())
	}
}

// TestPlanShapesAreCopies: a plan keeps its own copy of the shape.
func TestPlanShapesAreCopies(t *testing.T) {
	shape := []int{2, 3}
	s := Spec{Mode: Wrap, Before: []int{1, 1}, After: []int{0, 2}}
	p := etPlan(t, shape, s)
	shape[0], s.Before[0] = 5, 9
	in, out := p.InShape(), p.OutShape()
	if !slices.Equal(in, []int{2, 3}) || !slices.Equal(out, []int{3, 6}) {
		t.Fatalf("plan shapes %v -> %v after changing the caller's slices", in, out)
	}
	in[0], out[0] = 100, 100
	if !slices.Equal(p.InShape(), []int{2, 3}) || !slices.Equal(p.OutShape(), []int{3, 6}) {
		t.Errorf("InShape/OutShape return the plan's own slices")
	}
	dst := make([]int32, 18)
	if err := Run(p, dst, []int32{1, 2, 3, 4, 5, 6}, 0); err != nil {
		t.Fatal(err)
	}
	want := []int32{6, 4, 5, 6, 4, 5, 3, 1, 2, 3, 1, 2, 6, 4, 5, 6, 4, 5}
	for i := range want {
		if dst[i] != want[i] {
			t.Fatalf("Run after changing the caller's Spec: %v, want %v", dst, want)
		}
	}
}

// TestExactOutputLength: an output length is valid when its exact value
// is, even where before+dim alone would leave the int range.
func TestExactOutputLength(t *testing.T) {
	for _, c := range []struct {
		before, dim, after, want int
	}{
		{math.MaxInt - 5, 7, -10, math.MaxInt - 8},
		{-10, 7, math.MaxInt - 5, math.MaxInt - 8},
		{math.MinInt, 3, math.MaxInt, 2},
	} {
		got, err := Spec{Before: []int{c.before}, After: []int{c.after}}.OutShape([]int{c.dim})
		if err != nil || got[0] != c.want {
			t.Errorf("before %d, dim %d, after %d: got %v, %v; want [%d]", c.before, c.dim, c.after, got, err, c.want)
		}
	}
}
