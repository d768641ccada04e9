//! ICCS coordinates (`h2e2`), checked against the position.

use super::{require_legal, Format, NotationError};
use crate::{Move, Position, RankConvention};

/// Writes a legal move of `pos` in ICCS (`h2e2`).
///
/// ```
/// use xiangqi_rules::notation::{parse_iccs, to_iccs};
/// use xiangqi_rules::Position;
/// let pos = Position::startpos();
/// let m = parse_iccs(&pos, "H2-E2").unwrap();
/// assert_eq!(to_iccs(&pos, m).unwrap(), "h2e2");
/// ```
pub fn to_iccs(pos: &Position, m: Move) -> Result<String, NotationError> {
    require_legal(pos, m)?;
    Ok(m.to_string())
}

/// Reads an ICCS move (`h2e2`, or the PGN form `H2-E2`) that must be legal in `pos`.
pub fn parse_iccs(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let t = text.trim();
    let mut norm = t.to_ascii_lowercase();
    if norm.len() == 5 && norm.as_bytes()[2] == b'-' {
        norm.remove(2);
    }
    let m = Move::parse_iccs(&norm, RankConvention::Iccs).map_err(|e| NotationError::Syntax {
        text: text.to_string(),
        format: Format::Iccs,
        reason: e.to_string(),
    })?;
    pos.check_move(m).map_err(|reason| NotationError::Illegal {
        text: text.to_string(),
        mv: m,
        reason,
    })?;
    Ok(m)
}
