//! The measurement of chapter 05: what reaches each layer of a deep stack of encoder
//! layers at initialisation, with residual connections (post-LN and pre-LN) and
//! without them.
//!
//! ```text
//! cargo run --release -p measurements --example gradient_highway
//! ```
//!
//! prints the table the chapter quotes and writes
//! book/src/figures/05-encoder-layer-gradient-highway.svg.
//!
//! The stack: 24 encoder layers, d_model = 64, 4 heads, d_ff = 256, on one sequence of
//! 16 tokens. Every weight matrix is Xavier-uniform (as the Annotated Transformer and
//! PyTorch's nn.Transformer initialise them), every bias and β is 0, every γ is 1. The
//! pre-LN stack ends with a final LayerNorm, as pre-LN models do (GPT-2's ln_f); the
//! "no residual" stack is the post-LN layer with its two skips removed,
//! LayerNorm(F(x)). The input and the upstream gradient G of the loss sum(output ⊙ G)
//! have independent N(0, 1) entries.
//!
//! For every layer l it records, as a mean over 50 draws:
//! - the token spread of the layer's output, ‖X − mean‖ / ‖X‖, where mean is the
//!   average token (the average row): 1 when the tokens are unrelated, 0 when every
//!   token carries the same vector;
//! - the same spread of the gradient that reaches the layer's input, ∂L/∂x_l: 0 when
//!   every token receives the same gradient;
//! - the norm of that gradient, ‖∂L/∂x_l‖.
//!
//! Deterministic: the numbers come from SplitMix64, a fixed algorithm written out below,
//! not from a library whose stream could change between versions.

use course_common::ndarray::Axis;
use course_common::{Float, Matrix, Vector};
use course_figures::svg::{Svg, fixed, polyline_points};
use course_figures::{Lang, LangArgs, lang::languages};
use encoder_layer::{
    EncoderLayer, EncoderLayerForward, FeedForward, LayerNorm, Linear,
    MultiHeadAttention, NormPosition,
};

const LAYERS: usize = 24;
const D_MODEL: usize = 64;
const HEADS: usize = 4;
const D_FF: usize = 256;
const TOKENS: usize = 16;
const DRAWS: usize = 50;

/// SplitMix64 (Steele, Lea and Flood, 2014): a fixed, portable stream of 64-bit numbers.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1).
    fn uniform(&mut self) -> Float {
        ((self.next() >> 11) as Float + 0.5) / (1u64 << 53) as Float
    }

    /// Standard normal, by Box–Muller.
    fn normal(&mut self) -> Float {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }

    fn normal_matrix(&mut self, rows: usize, cols: usize) -> Matrix {
        Matrix::from_shape_simple_fn((rows, cols), || self.normal())
    }

    /// Xavier-uniform: U(−a, a) with a = √(6 / (fan_in + fan_out)), and a zero bias.
    fn xavier(&mut self, d_out: usize, d_in: usize) -> Linear {
        let a = (6.0 / (d_in + d_out) as Float).sqrt();
        let weight = Matrix::from_shape_simple_fn((d_out, d_in), || {
            (2.0 * self.uniform() - 1.0) * a
        });
        Linear::new(weight, Vector::zeros(d_out))
    }
}

fn encoder_layer(rng: &mut SplitMix64, position: NormPosition) -> EncoderLayer {
    let attention = MultiHeadAttention::new(
        HEADS,
        rng.xavier(D_MODEL, D_MODEL),
        rng.xavier(D_MODEL, D_MODEL),
        rng.xavier(D_MODEL, D_MODEL),
        rng.xavier(D_MODEL, D_MODEL),
    );
    let ffn = FeedForward::new(rng.xavier(D_FF, D_MODEL), rng.xavier(D_MODEL, D_FF));
    EncoderLayer::new(
        attention,
        ffn,
        LayerNorm::new(D_MODEL),
        LayerNorm::new(D_MODEL),
        position,
    )
}

fn norm(m: &Matrix) -> Float {
    m.iter().map(|v| v * v).sum::<Float>().sqrt()
}

/// The three stacks the measurement compares.
#[derive(Clone, Copy, PartialEq)]
enum Stack {
    /// The paper's layer: LayerNorm(x + F(x)).
    Post,
    /// x + F(LayerNorm(x)), and a final LayerNorm on top.
    Pre,
    /// The same layer without its residual connections: LayerNorm(F(x)).
    NoResidual,
}

/// The saved forward pass of one layer without residual connections.
struct Plain {
    attention: encoder_layer::MultiHeadForward,
    h: Matrix,
    ffn: encoder_layer::FeedForwardForward,
}

/// `LayerNorm_1(SA(x))`, then `LayerNorm_2(FFN(h))`: the layer with its skips removed.
fn plain_forward(layer: &EncoderLayer, x: &Matrix) -> (Matrix, Plain) {
    let attention = layer.self_attention.forward(x, x, None);
    let h = layer.norm_1.forward(&attention.output);
    let ffn = layer.ffn.forward(&h);
    let output = layer.norm_2.forward(&ffn.output);
    (output, Plain { attention, h, ffn })
}

/// The gradient of the layer's input, for the layer without residual connections.
fn plain_backward(
    layer: &EncoderLayer,
    x: &Matrix,
    pass: &Plain,
    d_output: &Matrix,
) -> Matrix {
    let d_f = layer.norm_2.backward(&pass.ffn.output, d_output).d_x;
    let d_h = layer.ffn.backward(&pass.h, &pass.ffn, &d_f).d_x;
    let d_a = layer.norm_1.backward(&pass.attention.output, &d_h).d_x;
    let grads = layer.self_attention.backward(x, x, &pass.attention, &d_a);
    &grads.d_query_input + &grads.d_key_value_input
}

/// ‖X − mean‖ / ‖X‖, where mean is the average row (token) of X.
fn spread(m: &Matrix) -> Float {
    let mean = m.mean_axis(Axis(0)).expect("at least one token");
    norm(&(m - &mean)) / norm(m)
}

/// What one draw measures for every layer l (0 is the bottom).
#[derive(Default)]
struct Profile {
    /// The token spread of layer l's output.
    output_spread: Vec<Float>,
    /// The token spread of ∂L/∂x_l.
    gradient_spread: Vec<Float>,
    /// ‖∂L/∂x_l‖.
    gradient_norm: Vec<Float>,
}

fn one_draw(seed: u64, stack: Stack) -> Profile {
    let mut rng = SplitMix64(seed);
    let position = if stack == Stack::Pre {
        NormPosition::Pre
    } else {
        NormPosition::Post
    };
    let layers: Vec<EncoderLayer> = (0..LAYERS)
        .map(|_| encoder_layer(&mut rng, position))
        .collect();
    let final_norm = LayerNorm::new(D_MODEL);
    let x = rng.normal_matrix(TOKENS, D_MODEL);
    let upstream = rng.normal_matrix(TOKENS, D_MODEL);
    let mut profile = Profile::default();
    // Forward, keeping every layer's input and saved pass.
    let mut inputs = Vec::with_capacity(LAYERS);
    let mut passes: Vec<EncoderLayerForward> = Vec::new();
    let mut plain_passes: Vec<Plain> = Vec::new();
    let mut h = x;
    for layer in &layers {
        let next = if stack == Stack::NoResidual {
            let (output, pass) = plain_forward(layer, &h);
            plain_passes.push(pass);
            output
        } else {
            let pass = layer.forward(&h, None);
            let output = pass.output.clone();
            passes.push(pass);
            output
        };
        inputs.push(h);
        h = next;
        profile.output_spread.push(spread(&h));
    }
    // Backward, from the top.
    let mut d = match stack {
        Stack::Pre => final_norm.backward(&h, &upstream).d_x,
        Stack::Post | Stack::NoResidual => upstream,
    };
    profile.gradient_spread = vec![0.0; LAYERS];
    profile.gradient_norm = vec![0.0; LAYERS];
    for l in (0..LAYERS).rev() {
        d = if stack == Stack::NoResidual {
            plain_backward(&layers[l], &inputs[l], &plain_passes[l], &d)
        } else {
            layers[l].backward(&inputs[l], &passes[l], &d).d_x
        };
        profile.gradient_spread[l] = spread(&d);
        profile.gradient_norm[l] = norm(&d);
    }
    profile
}

/// The means over the draws.
fn measure(stack: Stack) -> Profile {
    let mut mean = Profile {
        output_spread: vec![0.0; LAYERS],
        gradient_spread: vec![0.0; LAYERS],
        gradient_norm: vec![0.0; LAYERS],
    };
    for draw in 0..DRAWS {
        let profile = one_draw(1000 + draw as u64, stack);
        for (total, one) in [
            (&mut mean.output_spread, &profile.output_spread),
            (&mut mean.gradient_spread, &profile.gradient_spread),
            (&mut mean.gradient_norm, &profile.gradient_norm),
        ] {
            for (t, v) in total.iter_mut().zip(one) {
                *t += v / DRAWS as Float;
            }
        }
    }
    mean
}

/// The measurement of chapter 05: what reaches each layer of a deep stack of encoder layers
/// at initialisation, with residual connections (post-LN and pre-LN) and without them.
#[derive(clap::Parser)]
struct Args {
    #[command(flatten)]
    lang: LangArgs,
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    let stacks = [
        ("post-LN", measure(Stack::Post), "#d55e00"),
        ("pre-LN", measure(Stack::Pre), "#0072b2"),
        ("no residual", measure(Stack::NoResidual), "#555555"),
    ];
    println!(
        "{LAYERS} encoder layers, d_model {D_MODEL}, {HEADS} heads, d_ff {D_FF}, {TOKENS} \
         tokens; means over {DRAWS} draws"
    );
    println!(
        "{:>5}  {:^32}  {:^32}  {:^26}",
        "", "token spread of the output", "token spread of ∂L/∂x_l", "‖∂L/∂x_l‖"
    );
    println!(
        "{:>5}  {:>10}{:>10}{:>12}  {:>10}{:>10}{:>12}  {:>8}{:>8}{:>10}",
        "layer",
        "post",
        "pre",
        "no resid.",
        "post",
        "pre",
        "no resid.",
        "post",
        "pre",
        "no resid."
    );
    for l in (0..LAYERS).rev() {
        let [post, pre, plain] = [&stacks[0].1, &stacks[1].1, &stacks[2].1];
        println!(
            "{:>5}  {:>10.4}{:>10.4}{:>12.2e}  {:>10.4}{:>10.4}{:>12.2e}  {:>8.2}{:>8.2}{:>10.2}",
            l + 1,
            post.output_spread[l],
            pre.output_spread[l],
            plain.output_spread[l],
            post.gradient_spread[l],
            pre.gradient_spread[l],
            plain.gradient_spread[l],
            post.gradient_norm[l],
            pre.gradient_norm[l],
            plain.gradient_norm[l]
        );
    }
    for lang in languages(&args.lang.langs) {
        let path = course_figures::write_in(
            lang,
            "05-encoder-layer-gradient-highway.svg",
            &figure(&stacks, lang),
        );
        println!("wrote {}", path.display());
    }
}

/// Values below this are drawn on the plot's floor.
const FLOOR: Float = 1e-6;

/// Two log-scale panels against the layer: the token spread of the outputs, and of the
/// gradients, one line per stack.
fn figure(stacks: &[(&'static str, Profile, &str)], lang: Lang) -> String {
    const LEFT: Float = 70.0;
    const TOP: Float = 96.0;
    const PANEL_W: Float = 440.0;
    const PLOT_W: Float = 330.0;
    const PLOT_H: Float = 300.0;
    let width = LEFT + 2.0 * PANEL_W;
    let height = TOP + PLOT_H + 70.0;
    let (log_lo, log_hi) = (FLOOR.log10(), 0.0);
    let final_spread = |i: usize| stacks[i].1.output_spread[LAYERS - 1];
    // A stack's name in the figure's language.
    let named = |name: &'static str| match (lang, name) {
        (Lang::ZhCn, "no residual") => "无残差",
        _ => name,
    };
    let mut svg = Svg::new(width, height, 14);
    let (title, description) = match lang {
        Lang::En => (
            format!(
                "What survives {LAYERS} encoder layers at initialisation, with and without \
                 residual connections"
            ),
            format!(
                "Two log-scale panels against the layer, 1 (bottom) to {LAYERS} (top), of a \
             stack of {LAYERS} encoder layers at initialisation. Left: how different the \
             tokens still are after each layer (the token spread of the layer's output, 1 \
             for unrelated tokens, 0 when every token carries the same vector). Without \
             residual connections it falls below 1e-6 within a few layers: every token ends \
             up with the same vector. With them it decays slowly: post-LN ends at {:.1e}, \
             pre-LN at {:.2}. Right: the same spread for the gradient that reaches each \
             layer's input, going down the stack from right to left; without residual \
             connections every token of layers 5 to {LAYERS} receives the same gradient, \
             with them the gradient stays token-specific. Generated by the \
             gradient_highway example of the lesson 05 solution.",
                final_spread(0),
                final_spread(1),
            ),
        ),
        Lang::ZhCn => (
            format!("{LAYERS} 个编码器层在初始化时，有无残差连接各留下了什么"),
            format!(
                "两幅对数坐标图，横轴为层，从 1（底部）到 {LAYERS}（顶部），\
                 对象是初始化时由 {LAYERS} 个编码器层组成的堆叠。左：每层之后各词元之间还有多大差别\
                 （该层输出的词元离散度，互不相关的词元为 1，每个词元都是同一向量时为 0）。\
                 没有残差连接时，它在几层之内就降到 1e-6 以下：每个词元最终都是同一个向量。\
                 有残差连接时它衰减得很慢：post-LN 最后为 {:.1e}，pre-LN 为 {:.2}。\
                 右：到达每层输入的梯度的同一离散度，沿堆叠自右向左往下走；没有残差连接时，\
                 第 5 到第 {LAYERS} 层的每个词元收到的梯度都相同，有残差连接时梯度仍因词元而异。\
                 由第 05 课参考答案的 gradient_highway 示例生成。",
                final_spread(0),
                final_spread(1),
            ),
        ),
    };
    svg.title(&title, &description);
    svg.background(width, height);
    svg.text(width / 2.0, 28)
        .attr("text-anchor", "middle")
        .attr("font-size", 18)
        .attr("font-weight", "bold")
        .text(match lang {
            Lang::En => format!(
                "What survives {LAYERS} encoder layers, with and without residual connections"
            ),
            Lang::ZhCn => format!("{LAYERS} 个编码器层之后还剩下什么：有残差连接与无残差连接"),
        });
    svg.text(width / 2.0, 52)
        .attr("text-anchor", "middle")
        .attr("font-size", 14)
        .attr("fill", "#555")
        .text(match lang {
            Lang::En => format!(
                "at initialisation; token spread ‖X − mean token‖ / ‖X‖ (1: unrelated tokens, \
                 0: all tokens equal); mean of {DRAWS} draws"
            ),
            Lang::ZhCn => format!(
                "初始化时；词元离散度 ‖X − 平均词元‖ / ‖X‖（1：互不相关的词元，\
                 0：所有词元相同）；{DRAWS} 次抽样的平均"
            ),
        });
    type Pick = fn(&Profile) -> &Vec<Float>;
    let panels: [(&str, Pick); 2] = [
        (
            lang.pick("the tokens, after layer l", "第 l 层之后的词元"),
            |p| &p.output_spread,
        ),
        (
            lang.pick("the gradient reaching layer l", "到达第 l 层的梯度"),
            |p| &p.gradient_spread,
        ),
    ];
    // A bold label in a line's colour.
    let label = |svg: &mut Svg, x: Float, y: Float, color: &str, text: &str| {
        svg.text(x, y)
            .attr("font-size", 13)
            .attr("fill", color)
            .attr("font-weight", "bold")
            .text(text);
    };
    for (index, (title, pick)) in panels.iter().enumerate() {
        let x0 = LEFT + index as Float * PANEL_W;
        let x_of = |l: usize| x0 + PLOT_W * l as Float / (LAYERS - 1) as Float;
        let y_of =
            |v: Float| TOP + PLOT_H * (log_hi - v.max(FLOOR).log10()) / (log_hi - log_lo);
        svg.text(x0 + PLOT_W / 2.0, TOP - 14.0)
            .attr("text-anchor", "middle")
            .attr("font-size", 15)
            .attr("font-weight", "bold")
            .text(title);
        svg.rect(x0, TOP, PLOT_W, PLOT_H)
            .attr("fill", "none")
            .attr("stroke", "#999")
            .end();
        let mut decade = log_lo;
        while decade <= log_hi {
            let y = y_of((10.0 as Float).powf(decade));
            let text = match decade {
                0.0 => "1".to_owned(),
                d if d == log_lo => format!("≤ 1e{d}"),
                d => format!("1e{d}"),
            };
            svg.line(x0, y, x0 + PLOT_W, y)
                .attr("stroke", "#e5e5e5")
                .end();
            svg.text(x0 - 6.0, y + 4.0)
                .attr("text-anchor", "end")
                .attr("font-size", 12)
                .text(text);
            decade += 1.0;
        }
        for l in (0..LAYERS).filter(|l| l % 4 == 3 || *l == 0) {
            svg.text(x_of(l), TOP + PLOT_H + 18.0)
                .attr("text-anchor", "middle")
                .attr("font-size", 12)
                .text(l + 1);
        }
        svg.text(x0 + PLOT_W / 2.0, TOP + PLOT_H + 40.0)
            .attr("text-anchor", "middle")
            .attr("font-size", 13)
            .attr("fill", "#444")
            .text(match lang {
                Lang::En => format!("layer l (1 = bottom, {LAYERS} = top)"),
                Lang::ZhCn => format!("第 l 层（1 = 底部，{LAYERS} = 顶部）"),
            });
        for (name, profile, color) in stacks {
            let values = pick(profile);
            let points: Vec<(Float, Float)> = values
                .iter()
                .enumerate()
                .map(|(l, &v)| (x_of(l), y_of(v)))
                .collect();
            svg.tag("polyline")
                .attr("points", polyline_points(&points, 1))
                .attr("fill", "none")
                .attr("stroke", color)
                .attr("stroke-width", 2.2)
                .end();
            for &(x, y) in &points {
                svg.circle(fixed(x, 1), fixed(y, 1), 2.6)
                    .attr("fill", color)
                    .end();
            }
            // Label each line where it ends, at the top layer (the right panel has a
            // legend instead: its lines end close together).
            if index == 0 {
                let (x, y) = points[LAYERS - 1];
                let shift = if values[LAYERS - 1] <= FLOOR {
                    -8.0
                } else {
                    4.0
                };
                label(&mut svg, x + 8.0, y + shift, color, named(name));
            }
        }
    }
    for (i, (name, _, color)) in stacks.iter().enumerate() {
        let x = LEFT + PANEL_W + PLOT_W - 120.0;
        let y = TOP + PLOT_H / 2.0 + 20.0 * i as Float;
        svg.line(x, y, x + 22.0, y)
            .attr("stroke", color)
            .attr("stroke-width", 2.2)
            .end();
        label(&mut svg, x + 28.0, y + 4.0, color, named(name));
    }
    svg.finish()
}
