package frontend

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/tensorpad/pad"
)

// Ints must never truncate: on 32-bit platforms int64 pads beyond int32 are
// errors (run with GOARCH=386 to exercise that branch).
func TestInts(t *testing.T) {
	for _, v := range []int64{0, 1, -1, math.MaxInt32, math.MinInt32, math.MaxInt32 + 1, math.MinInt32 - 1, 1 << 40, math.MaxInt64, math.MinInt64} {
		got, err := Ints("pads", []int64{7, v})
		fits := strconv.IntSize == 64 || (v >= math.MinInt32 && v <= math.MaxInt32)
		if fits && (err != nil || !slices.Equal(got, []int{7, int(v)})) {
			t.Errorf("%d: got %v, %v", v, got, err)
		}
		if !fits && !errors.Is(err, pad.ErrTooLarge) {
			t.Errorf("%d: got %v, want ErrTooLarge", v, err)
		}
	}
	if got, err := Ints("pads", nil); got != nil || err != nil {
		t.Errorf("nil: got %v, %v", got, err)
	}
}

func TestRunErrors(t *testing.T) {
	p, err := pad.NewPlan([]int{3}, pad.Spec{Mode: pad.Constant, Before: []int{1}, After: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		run  func() ([]byte, []int, error)
		want error
	}{
		{"zero element size", func() ([]byte, []int, error) { return RunBytes(p, nil, 0, nil) }, pad.ErrInvalidSpec},
		{"huge element size", func() ([]byte, []int, error) { return RunBytes(p, nil, math.MaxInt, nil) }, pad.ErrTooLarge},
		{"value size", func() ([]byte, []int, error) { return RunBytes(p, make([]byte, 6), 2, []byte{1}) }, pad.ErrShapeMismatch},
		{"data size", func() ([]byte, []int, error) { return RunBytes(p, make([]byte, 5), 2, nil) }, pad.ErrShapeMismatch},
		{"packed bits", func() ([]byte, []int, error) { return RunPacked(p, make([]byte, 2), 3, 0) }, pad.ErrInvalidSpec},
		{"packed data size", func() ([]byte, []int, error) { return RunPacked(p, make([]byte, 1), 4, 0) }, pad.ErrShapeMismatch},
		{"packed value range", func() ([]byte, []int, error) { return RunPacked(p, make([]byte, 1), 2, 4) }, pad.ErrInvalidSpec},
	}
	for _, tc := range tests {
		if out, shape, err := tc.run(); !errors.Is(err, tc.want) || out != nil || shape != nil {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
	out, shape, err := RunPacked(p, []byte{0x21, 0x03}, 4, 9)
	if err != nil || !slices.Equal(out, []byte{0x19, 0x32}) || !slices.Equal(shape, []int{4}) {
		t.Errorf("packed: got %x %v %v", out, shape, err)
	}
}
