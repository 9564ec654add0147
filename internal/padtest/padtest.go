// Package padtest is test support for the front-end packages: it loads the
// shared conformance vectors and holds an independent per-element reference
// of SEMANTICS.md, written without the core, against which results the
// vectors do not pin down (by-design differences from a source engine) are
// checked.
package padtest

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Dir is the conformance directory seen from a front-end package directory
// (one level below the repo root; the vectors live in ../shared/conformance
// relative to the root).
var Dir = filepath.Join("..", "..", "shared", "conformance")

// Case is one conformance vector; see shared/conformance/README.md.
type Case struct {
	Name              string    `json:"name"`
	Source            string    `json:"source"`
	DType             string    `json:"dtype"`
	Shape             []int     `json:"shape"`
	Data              string    `json:"data"`
	Mode              string    `json:"mode"`
	PadsBegin         []int     `json:"pads_begin"`
	PadsEnd           []int     `json:"pads_end"`
	Interior          []int     `json:"interior"`
	Value             *string   `json:"value"`
	ONNX              *ONNXNode `json:"onnx"`
	ONNXLegacy        *ONNXNode `json:"onnx_legacy"`
	OpenVINO          *OVNode   `json:"openvino"`
	NegativePadsOrder string    `json:"negative_pads_order"`
	Limits            string    `json:"limits"`
	OutShape          []int     `json:"out_shape"`
	Out               string    `json:"out"`
	Error             *string   `json:"error"`
	Note              string    `json:"note"`
}

// ONNXNode is a case's `onnx` (or `onnx_legacy`) block.
type ONNXNode struct {
	Pads           []int64  `json:"pads"`
	Axes           []int64  `json:"axes"`
	Opset          int      `json:"opset"`
	PadsAttribute  string   `json:"pads_attribute"`
	ValueAttribute *float64 `json:"value_attribute"`
	OpsetsRun      []int    `json:"opsets_run"`
	AxesDType      string   `json:"axes_dtype"`
	PadsLayout     string   `json:"pads_layout"`
}

// OVNode is a case's `openvino` block.
type OVNode struct {
	Ops           []string `json:"ops"`
	PadsDTypes    []string `json:"pads_dtypes"`
	PadValueInput bool     `json:"pad_value_input"`
}

// Load reads one conformance file, skipping the test with a clear message
// when the shared directory is absent.
func Load(t testing.TB, file string) []Case {
	t.Helper()
	path := filepath.Join(Dir, file)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("conformance vectors not found at %s (they live in shared/conformance beside the repo, ../shared/conformance from its root); skipping", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	var cases []Case
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(cases) == 0 {
		t.Fatalf("%s holds no cases", path)
	}
	return cases
}

// Bytes decodes a hex field; "" gives an empty, non-nil slice.
func Bytes(t testing.TB, h string) []byte {
	t.Helper()
	b, err := hex.DecodeString(h)
	if err != nil {
		t.Fatalf("bad hex %q: %v", h, err)
	}
	return b
}

// ValueBytes returns the case's pad value, or nil when it has none (zero).
func (c *Case) ValueBytes(t testing.TB) []byte {
	if c.Value == nil {
		return nil
	}
	return Bytes(t, *c.Value)
}

// Bits is the element size in bits of each conformance dtype name.
var Bits = map[string]int{
	"float32": 32, "float64": 64, "float16": 16, "bfloat16": 16,
	"int8": 8, "int16": 16, "int32": 32, "int64": 64,
	"uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64,
	"bool": 8, "complex64": 64, "complex128": 128,
	"int4": 4, "uint4": 4, "float4e2m1": 4,
	"float8e4m3fn": 8, "float8e4m3fnuz": 8, "float8e5m2": 8, "float8e5m2fnuz": 8, "float8e8m0": 8,
	"int2": 2, "uint2": 2,
}

// Ref describes one padding for Reference.
type Ref struct {
	Shape       []int
	Bits        int // 2, 4, or a multiple of 8
	Data        []byte
	Mode        string // constant, reflect, edge, wrap, symmetric
	Before      []int
	After       []int
	Interior    []int // nil for none
	PadThenCrop bool  // order for negative pads in non-constant modes
	Value       []byte
}

// Reference computes the padding element by element, straight from the
// per-axis index maps of SEMANTICS.md §1-§5, and rejects what §7 rejects.
// It is deliberately slow and simple.
func Reference(r Ref) ([]byte, []int, error) {
	rank := len(r.Shape)
	if len(r.Before) != rank || len(r.After) != rank || (r.Interior != nil && len(r.Interior) != rank) {
		return nil, nil, errors.New("pads length differs from rank")
	}
	switch r.Mode {
	case "constant", "reflect", "edge", "wrap", "symmetric":
	default:
		return nil, nil, fmt.Errorf("unknown mode %q", r.Mode)
	}
	out := make([]int, rank)
	maps := make([][]int, rank) // per axis: output index -> input index or -1
	for i, d := range r.Shape {
		b, a, k := r.Before[i], r.After[i], 0
		if r.Interior != nil {
			k = r.Interior[i]
		}
		if k < 0 || (k > 0 && r.Mode != "constant") {
			return nil, nil, fmt.Errorf("axis %d: interior %d in %s mode", i, k, r.Mode)
		}
		D := 0
		if d > 0 {
			D = (d-1)*(k+1) + 1
		}
		L := b + D + a
		if L < 0 {
			return nil, nil, fmt.Errorf("axis %d: output length %d", i, L)
		}
		out[i] = L
		m := make([]int, L)
		for j := range m {
			m[j] = -1
		}
		switch {
		case r.Mode == "constant":
			for j := range m {
				if p := j - b; p >= 0 && p < D && p%(k+1) == 0 {
					m[j] = p / (k + 1)
				}
			}
		case r.PadThenCrop:
			if d == 0 && (b > 0 || a > 0) {
				return nil, nil, fmt.Errorf("axis %d: %s padding of an empty axis", i, r.Mode)
			}
			for j := range m {
				m[j] = extend(r.Mode, j-b, d)
			}
		default: // crop then pad
			lo, hi := max(0, -b), max(0, -a)
			w := d - lo - hi
			if w < 0 || (w == 0 && (b > 0 || a > 0)) {
				return nil, nil, fmt.Errorf("axis %d: %s padding of a window of %d", i, r.Mode, w)
			}
			for j := range m {
				m[j] = lo + extend(r.Mode, j-max(0, b), w)
			}
		}
		maps[i] = m
	}
	n := 1
	for _, L := range out {
		n *= L
	}
	dst := make([]byte, (n*r.Bits+7)/8)
	idx := make([]int, rank)
	for o := 0; o < n; o++ {
		rem := o
		for i := rank - 1; i >= 0; i-- {
			idx[i] = rem % out[i]
			rem /= out[i]
		}
		src := 0
		for i := 0; i < rank && src >= 0; i++ {
			if s := maps[i][idx[i]]; s < 0 {
				src = -1
			} else {
				src = src*r.Shape[i] + s
			}
		}
		if src < 0 {
			putElem(dst, o, r.Bits, r.Value, 0)
		} else {
			putElem(dst, o, r.Bits, r.Data, src)
		}
	}
	return dst, out, nil
}

// extend maps x to an index of an axis of length n >= 1 (SEMANTICS §3).
func extend(mode string, x, n int) int {
	mod := func(x, p int) int { return ((x % p) + p) % p }
	switch mode {
	case "edge":
		return min(max(x, 0), n-1)
	case "wrap":
		return mod(x, n)
	case "reflect":
		if n == 1 {
			return 0
		}
		p := 2 * (n - 1)
		if r := mod(x, p); r < n {
			return r
		} else {
			return p - r
		}
	default: // symmetric
		p := 2 * n
		if r := mod(x, p); r < n {
			return r
		} else {
			return p - 1 - r
		}
	}
}

// putElem copies element s of src (nil or empty src: zero) to element o of dst.
func putElem(dst []byte, o, bits int, src []byte, s int) {
	if bits%8 == 0 {
		size := bits / 8
		if len(src) == 0 {
			return // dst is zeroed
		}
		copy(dst[o*size:(o+1)*size], src[s*size:(s+1)*size])
		return
	}
	var v byte
	if len(src) > 0 {
		v = src[s*bits/8] >> (s * bits % 8) & (1<<bits - 1)
	}
	dst[o*bits/8] |= v << (o * bits % 8)
}
