package suite

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// peersFile is the peer suite seen from this directory.
var peersFile = filepath.Join("..", "..", PeersPath)

func TestBuiltinMatchesPeers(t *testing.T) {
	cases, err := Load(peersFile)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent", peersFile)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cases, Builtin()) {
		t.Errorf("the built-in suite differs from %s:\n got %+v\nwant %+v", peersFile, Builtin(), cases)
	}
	got, source, err := LoadOrBuiltin(peersFile)
	if err != nil || source != peersFile || len(got) != len(cases) {
		t.Errorf("LoadOrBuiltin(%s) = %d cases from %q, %v", peersFile, len(got), source, err)
	}
}

func TestLoadOrBuiltinFallback(t *testing.T) {
	cases, source, err := LoadOrBuiltin(filepath.Join(t.TempDir(), "absent.json"))
	if err != nil || source != "built-in" || !reflect.DeepEqual(cases, Builtin()) {
		t.Fatalf("LoadOrBuiltin(absent) = %d cases from %q, %v", len(cases), source, err)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"cases": [{"name": "x"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadOrBuiltin(bad); err == nil {
		t.Error("LoadOrBuiltin accepted a case without dtype")
	}
}

func TestBuiltinIsACopy(t *testing.T) {
	a := Builtin()
	a[0].Shape[0] = 99
	if Builtin()[0].Shape[0] == 99 {
		t.Error("Builtin returned the package's own slices")
	}
}

func TestResolve(t *testing.T) {
	cases := Builtin()
	byName := map[string]*Resolved{}
	for _, c := range cases {
		r, err := c.Resolve()
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		byName[c.Name] = r
		if in := r.Input(); len(in) != r.InBytes() {
			t.Errorf("%s: input has %d bytes, want %d", c.Name, len(in), r.InBytes())
		}
	}
	f := byName["f_outer_axis"] // axes=[0]
	if !reflect.DeepEqual(f.Before, []int{2, 0, 0}) || !reflect.DeepEqual(f.After, []int{2, 0, 0}) ||
		!reflect.DeepEqual(f.OutShape, []int{20, 128, 128}) || f.OutBytes() != 20*128*128*4 {
		t.Errorf("f_outer_axis resolved to %+v", f)
	}
	j := byName["j_crop_pad"]
	if !reflect.DeepEqual(j.Before, []int{0, 0, -2, -2}) || !reflect.DeepEqual(j.OutShape, []int{1, 3, 224, 224}) {
		t.Errorf("j_crop_pad resolved to %+v", j)
	}
	if d := byName["d_const_w16"]; !bytes.Equal(d.ValueBytes, []byte{0, 0, 0, 0x3f}) {
		t.Errorf("d_const_w16: value bytes %x, want float32 0.5", d.ValueBytes)
	}
	if g := byName["g_u8_reflect"]; g.Elem.Size != 1 || len(g.ValueBytes) != 1 {
		t.Errorf("g_u8_reflect: element %+v, value %x", g.Elem, g.ValueBytes)
	}
	neg, err := Case{Name: "n", DType: "int16", Shape: []int{2}, Mode: "constant", Pads: []int{1, 1}, Value: -2}.Resolve()
	if err != nil || !bytes.Equal(neg.ValueBytes, []byte{0xfe, 0xff}) {
		t.Errorf("int16 -2: %x, %v", neg.ValueBytes, err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, doc := range []string{
		`{}`,
		`{"cases": [{"name": "a", "dtype": "float32", "shape": [2], "mode": "constant", "pads": [1]}]}`,
		`{"cases": [{"name": "a", "dtype": "float16", "shape": [2], "mode": "constant", "pads": [1, 1]}]}`,
		`{"cases": [{"name": "a", "dtype": "float32", "shape": [2], "mode": "mirror", "pads": [1, 1]}]}`,
		`{"cases": [{"name": "a", "dtype": "int8", "shape": [2], "mode": "constant", "pads": [1, 1], "value": 0.5}]}`,
		`{"cases": [{"name": "a", "dtype": "int8", "shape": [2], "mode": "constant", "pads": [-3, 0]}]}`,
		`{"cases": [{"name": "a", "dtype": "int8", "shape": [2, 2], "mode": "constant", "axes": [1, -1], "pads": [1, 1, 1, 1]}]}`,
		`{"cases": [{"name": "a", "dtype": "int8", "shape": [2], "mode": "constant", "pads": [1, 1]},
		            {"name": "a", "dtype": "int8", "shape": [2], "mode": "constant", "pads": [1, 1]}]}`,
	} {
		if _, err := Parse([]byte(doc)); err == nil {
			t.Errorf("Parse accepted %s", strings.Join(strings.Fields(doc), " "))
		}
	}
}

func TestAlignedBytes(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 1000} {
		b := AlignedBytes(n)
		if len(b) != n || cap(b) != n {
			t.Errorf("AlignedBytes(%d): len %d cap %d", n, len(b), cap(b))
		}
	}
}
