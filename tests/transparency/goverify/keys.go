package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"
)

// A witness's cosignature key (C2SP tlog-cosignature, type 0x04): x/mod's note knows Ed25519 (type 0x01) only, and
// takes any Verifier, so this one is ours.
const cosignatureType = 0x04

type cosigner struct {
	name string
	hash uint32
	key  ed25519.PublicKey
}

func keyHash(name string, kind byte, key []byte) uint32 {
	h := sha256.New()
	h.Write([]byte(name + "\n"))
	h.Write([]byte{kind})
	h.Write(key)
	return binary.BigEndian.Uint32(h.Sum(nil))
}

func parseCosigner(vkey string) (*cosigner, error) {
	parts := strings.SplitN(strings.TrimSpace(vkey), "+", 3)
	if len(parts) != 3 {
		return nil, fmt.Errorf("not a vkey: %q", vkey)
	}
	raw, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil || len(raw) != 33 || raw[0] != cosignatureType {
		return nil, fmt.Errorf("not a cosignature/v1 vkey: %q", vkey)
	}
	c := &cosigner{name: parts[0], key: ed25519.PublicKey(raw[1:])}
	c.hash = keyHash(c.name, cosignatureType, c.key)
	if fmt.Sprintf("%08x", c.hash) != parts[1] {
		return nil, fmt.Errorf("vkey %q: its key hash is not %s", vkey, parts[1])
	}
	return c, nil
}

func (c *cosigner) Name() string    { return c.name }
func (c *cosigner) KeyHash() uint32 { return c.hash }

func cosignedMessage(text []byte, timestamp uint64) []byte {
	return append([]byte(fmt.Sprintf("cosignature/v1\ntime %d\n", timestamp)), text...)
}

func (c *cosigner) Verify(msg, sig []byte) bool {
	if len(sig) != 8+ed25519.SignatureSize {
		return false
	}
	return ed25519.Verify(c.key, cosignedMessage(msg, binary.BigEndian.Uint64(sig[:8])), sig[8:])
}

// cosign is a witness's signature line of a checkpoint's text, made at `timestamp`.
func cosign(name string, key ed25519.PrivateKey, text []byte, timestamp uint64) string {
	public := key.Public().(ed25519.PublicKey)
	var signed bytes.Buffer
	binary.Write(&signed, binary.BigEndian, keyHash(name, cosignatureType, public))
	binary.Write(&signed, binary.BigEndian, timestamp)
	signed.Write(ed25519.Sign(key, cosignedMessage(text, timestamp)))
	return fmt.Sprintf("\u2014 %s %s\n", name, base64.StdEncoding.EncodeToString(signed.Bytes()))
}

func cosignerVkey(name string, public ed25519.PublicKey) string {
	return fmt.Sprintf("%s+%08x+%s", name, keyHash(name, cosignatureType, public),
		base64.StdEncoding.EncodeToString(append([]byte{cosignatureType}, public...)))
}
