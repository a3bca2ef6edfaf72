#include <opus.h>

// opus_encoder_ctl and opus_decoder_ctl are variadic, which Swift cannot call: one fixed-argument
// wrapper per request vload makes.

/// The encoder's algorithmic delay in samples at its rate (OPUS_GET_LOOKAHEAD).
static inline int vload_opus_encoder_lookahead(OpusEncoder *encoder, opus_int32 *samples) {
    return opus_encoder_ctl(encoder, OPUS_GET_LOOKAHEAD(samples));
}

/// The encoder's target bitrate in bits per second (OPUS_GET_BITRATE).
static inline int vload_opus_encoder_bitrate(OpusEncoder *encoder, opus_int32 *bitsPerSecond) {
    return opus_encoder_ctl(encoder, OPUS_GET_BITRATE(bitsPerSecond));
}

/// Sets the encoder's target bitrate in bits per second (OPUS_SET_BITRATE).
static inline int vload_opus_encoder_set_bitrate(OpusEncoder *encoder, opus_int32 bitsPerSecond) {
    return opus_encoder_ctl(encoder, OPUS_SET_BITRATE(bitsPerSecond));
}
